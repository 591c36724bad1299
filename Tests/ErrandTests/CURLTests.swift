import Errand
import ErrandTestSupport
import Foundation
import Testing

@Suite struct CURLTests {
    /// Bodies no shell quoting must change: quotes, a newline, `$`, backticks, non-ASCII, and
    /// bytes that are not UTF-8, with a NUL.
    static let requests: [RequestData] = [
        .post("/anything/a").header("X-Note", #"it's "quoted" $HOME `id` é"#)
            .query("q", "a b&c").body(.text("it's \"x\"\n$HOME `id` \\n é ü 😀")),
        .put("/anything/b").body(
            .raw(Data([0x00, 0xFF, 0x27, 0x5C, 0x0A, 0x41, 0xC3]), contentType: "application/octet-stream")),
        .post("/anything/c").body(.form(["name": "O'Brien & \"Co\"", "city": "Zürich"])),
        .post("/anything/d").body(
            .multipart([MultipartPart(name: "title", data: Data("it's $x".utf8))], boundary: "b-1")),
        .delete("/anything/e").header("X-Empty", ""),
        // A body curl would read from that local file if it were `--data-binary @…`.
        .post("/anything/f").body(.text("@/etc/hostname")),
    ]

    @Test(.enabled(if: LiveServer.httpbinAvailable, LiveServer.skipReason))
    func theCommandSendsWhatTheDispatcherSends() async throws {
        let base = try LiveServer.require(LiveServer.httpbin, "ERRAND_HTTPBIN_URL")
        let dispatcher = URLSessionDispatcher(baseURL: base)
        for request in Self.requests {
            // Given a request sent by Errand
            let viaErrand = try Self.echo(try await dispatcher.dispatch(request).body)

            // When its cURL command runs in bash
            let command = try request.curlCommand(baseURL: base, redacted: false)
            let viaCurl = try Self.echo(await Self.bash(command))

            // Then httpbin saw the same method, URL, headers set and body bytes
            for key in ["method", "url", "data", "form", "files", "args"] {
                #expect(Self.json(viaCurl[key]) == Self.json(viaErrand[key]), "\(key) differs for \(command)")
            }
            for name in request.effectiveHeaders.map(\.name) {
                #expect(
                    Self.header(name, in: viaCurl) == Self.header(name, in: viaErrand),
                    "\(name) for \(command)")
                #expect(Self.header(name, in: viaCurl) != nil, "\(name) missing for \(command)")
            }
        }
    }

    @Test func theRedactedCommandHoldsNoSecret() throws {
        // Given a request with secrets in a header, the query and the body
        let request = RequestData.post("/login").header("Authorization", "Bearer S-AUTH")
            .query("api_key", "S-KEY").body(.form(["user": "ann", "password": "S-PASS"]))

        // When its command is made, redacted by default
        let command = try request.curlCommand(baseURL: URL(string: "https://api.example.com"))

        // Then no secret is in it, and the rest is
        for secret in ["S-AUTH", "S-KEY", "S-PASS"] { #expect(!command.contains(secret)) }
        #expect(command.hasPrefix("curl -X 'POST' 'https://api.example.com/login?api_key=%3Credacted%3E'"))
        #expect(command.contains("-H 'Authorization: <redacted>'"))
        #expect(command.contains("--data-raw 'user=ann&password=%3Credacted%3E'"))
        #expect(
            try request.curlCommand(baseURL: URL(string: "https://api.example.com"), redacted: false)
                .contains("S-PASS"))
    }

    @Test func bytesThatCannotBeAnArgumentArePipedThroughPrintf() throws {
        // Given a body with a NUL
        let request = RequestData.post("https://h/x").body(
            .raw(Data([0x41, 0x00, 0x27]), contentType: "a/b"))

        // When its command is made
        let command = try request.curlCommand(baseURL: nil)

        // Then printf writes the bytes and curl reads them from standard input
        #expect(
            command
                == #"printf '%b' 'A\0000'\''' | curl -X 'POST' 'https://h/x' -H 'Content-Type: a/b' --data-binary @-"#
        )
    }

    /// The JSON httpbin echoed.
    static func echo(_ data: Data) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    }

    /// A JSON value as text with sorted keys, to compare.
    static func json(_ value: Any?) -> String? {
        guard let value,
            let data = try? JSONSerialization.data(
                withJSONObject: value, options: [.sortedKeys, .fragmentsAllowed])
        else { return nil }
        return String(decoding: data, as: UTF8.self)
    }

    /// The value of the header `name` as httpbin echoed it, whatever its case.
    static func header(_ name: String, in echo: [String: Any]) -> String? {
        let headers = echo["headers"] as? [String: String] ?? [:]
        return headers.first { $0.key.lowercased() == name.lowercased() }?.value
    }

    /// Runs `command` with `bash -c` and returns its standard output.
    static func bash(_ command: String) async throws -> Data {
        let result = await offPool { () -> Data in
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/bin/bash")
            process.arguments = ["-c", command + " --silent --show-error"]
            let output = Pipe()
            process.standardOutput = output
            guard (try? process.run()) != nil else { return Data() }
            let data = output.fileHandleForReading.readDataToEndOfFile()
            process.waitUntilExit()
            return data
        }
        return result
    }
}
