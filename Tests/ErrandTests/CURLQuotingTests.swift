import Errand
import ErrandTestSupport
import Foundation
import Testing

/// A cURL command pasted into a terminal does what it says and nothing else: no character of a
/// caller's header, method or body ends the command, runs a terminal escape or hides text.
@Suite struct CURLQuotingTests {
    /// A header value and a body with every kind of character a terminal acts on.
    static let hostile = "a\u{1B}]0;title\u{07}b\u{1B}[201~\r\nid; rm -rf x\tc\u{9B}2J\u{202E}d\u{2028}e'\\f"

    @Test func noControlCharacterReachesTheCommandRaw() throws {
        // Given a request with control characters in its method, a header and the body
        let request = RequestData(
            path: "https://api.example.com/x", method: HTTPMethod(rawValue: "PURGE\u{1B}[31m"),
            headers: ["X-Note": Self.hostile], body: .text(Self.hostile))
        // When its command is made
        let command = try request.curlCommand(baseURL: nil)
        // Then no character a terminal acts on is in it, and those arguments are ANSI-C quoted
        let raw = command.unicodeScalars.filter { scalar in
            scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value)
                || [0x2028, 0x202E].contains(scalar.value)
        }
        #expect(raw.isEmpty, "\(raw.map(\.value))")
        #expect(command.contains(#"-X $'PURGE\x1B[31m'"#))
        #expect(command.contains(#"\r\nid; rm -rf x\tc\xC2\x9B2J\xE2\x80\xAEd\xE2\x80\xA8e\'\\f'"#))
    }

    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/bin/bash")))
    func bashReadsEveryArgumentBackExactly() async throws {
        // Given a request whose header and body hold control characters, quotes and backslashes
        let request = RequestData.post("https://api.example.com/x")
            .header("X-Note", Self.hostile).body(.raw(Data(Self.hostile.utf8), contentType: "text/plain"))
        let command = try request.curlCommand(baseURL: nil)

        // When bash runs it with a `curl` that prints its arguments
        let printed = await Self.bash(#"curl() { for a in "$@"; do printf '%s\0' "$a"; done; }; "# + command)

        // Then every argument arrives byte for byte
        let arguments = printed.split(separator: 0, omittingEmptySubsequences: false).dropLast()
            .map { String(decoding: $0, as: UTF8.self) }
        #expect(
            arguments == [
                "-X", "POST", "https://api.example.com/x", "-H", "X-Note: \(Self.hostile)", "-H",
                "Content-Type: text/plain", "--data-raw", Self.hostile,
            ])
    }

    @Test(
        .enabled(if: FileManager.default.isExecutableFile(atPath: "/bin/bash")),
        arguments: ["@/etc/hostname", "@-", "<\n@/etc/passwd", "@/tmp/x\u{1B}]0;t\u{07}"])
    func aBodyStartingWithAtIsSentAsWrittenNotReadFromAFile(body: String) async throws {
        // Given a text body that curl's `--data-binary` or `-d` would read as a file name
        let command = try RequestData.post("https://api.example.com/a").body(.text(body))
            .curlCommand(baseURL: nil)

        // When bash runs it with a `curl` that prints its arguments
        let printed = await Self.bash(#"curl() { for a in "$@"; do printf '%s\0' "$a"; done; }; "# + command)
        let arguments = printed.split(separator: 0, omittingEmptySubsequences: false).dropLast()
            .map { String(decoding: $0, as: UTF8.self) }

        // Then the body is the argument of `--data-raw`, which has no file meaning
        #expect(Array(arguments.suffix(2)) == ["--data-raw", body])
        let readsFiles: Set = [
            "-d", "--data", "--data-binary", "--data-urlencode", "-F", "--form", "-T", "-K",
        ]
        #expect(!arguments.contains(where: readsFiles.contains), "\(arguments)")
    }

    @Test func aHeaderFieldStartingWithAtIsRefused() throws {
        // Given a header name curl's `-H` would read as a file of headers to send
        let request = RequestData.get("https://api.example.com/a").header("@/etc/passwd", "")

        // When its command is made, then it is refused, the name escaped in the message
        let error = try #require(throws: NetworkError.self) { try request.curlCommand(baseURL: nil) }
        #expect(error.code == .invalidRequest)
        #expect(error.message.contains("@/etc/passwd"))
    }

    /// Runs `script` with `bash -c` and returns its standard output.
    static func bash(_ script: String) async -> Data {
        await offPool { () -> Data in
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/bin/bash")
            process.arguments = ["-c", script]
            let output = Pipe()
            process.standardOutput = output
            guard (try? process.run()) != nil else { return Data() }
            let data = output.fileHandleForReading.readDataToEndOfFile()
            process.waitUntilExit()
            return data
        }
    }
}
