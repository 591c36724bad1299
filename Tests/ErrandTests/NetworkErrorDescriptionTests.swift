import Errand
import Foundation
import Testing

/// What `NetworkError` writes for the log and for a person: whatever it quotes, nothing in it can
/// start a line or run a terminal escape.
@Suite struct NetworkErrorDescriptionTests {
    /// A cause whose text holds a forged line and an escape, as a transport error may quote a URL.
    struct HostileCause: Error, CustomStringConvertible {
        var description: String { "refused\(HostileLogVector.hostile)" }
    }

    static let hostile = HostileLogVector.hostile

    /// An error quoting hostile text in every field it has.
    static func hostileError(_ code: NetworkError.Code) -> NetworkError {
        let request = RequestData.get("/a\(hostile)").query("q", hostile)
        let response = NetworkResponse(
            statusCode: 500, headers: ["Content-Type": "text/plain"], body: Data("down\(hostile)".utf8),
            url: URL(string: "https://api.example.com/a%0D%0A"), request: request)
        return NetworkError(
            code: code, message: "No stub matches \(request.path).\nNearest stubs:\n  GET /b",
            request: request,
            response: response, underlyingError: HostileCause())
    }

    @Test(arguments: NetworkError.Code.allCases)
    func aDescriptionQuotesEverythingEscapedWithItsLinesIndented(code: NetworkError.Code) {
        // Given an error whose request, message, answer and cause all hold hostile text
        let error = Self.hostileError(code)

        // When it is described
        let description = error.description

        // Then its first line starts with the code, every other with two spaces, and no raw
        // control character, forged line or escape is in it
        let lines = description.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.first == "NetworkError.\(code.rawValue): No stub matches /a")
        for line in lines.dropFirst() {
            #expect(line.hasPrefix("  "), "\(line.debugDescription)")
        }
        #expect(!description.unicodeScalars.contains { $0 != "\n" && EscapedText.needsEscape($0) })
        #expect(!description.split(whereSeparator: \.isNewline).contains { $0.hasPrefix("[errand #999]") })
        // And a message's own lines keep their shape under the first, while what the request,
        // the answer and the cause quote stays on their one line each
        #expect(description.contains("\n  Nearest stubs:\n    GET /b\n  request: GET /a\\r\\n[errand #999]"))
        #expect(description.contains("\n  cause: refused\\r\\n[errand #999]"))
        if code == .unacceptableStatus { #expect(description.contains("\n  body: down\\r\\n[errand #999]")) }
    }

    @Test(arguments: NetworkError.Code.allCases)
    func aUserMessageQuotesNothing(code: NetworkError.Code) {
        // Given an error full of hostile text
        let error = Self.hostileError(code)

        // When its message for a person is read
        let message = error.userMessage

        // Then it is one plain sentence of the library's own
        #expect(!message.unicodeScalars.contains(where: EscapedText.needsEscape))
        #expect(!message.contains("errand"))
        #expect(!message.contains("/a"))
    }

    @Test func aDescriptionStillHidesTheRequestsSecretsWhereverItRepeatsThem() {
        // Given an error whose cause and answer repeat a secret header of the request
        let request = RequestData.get("/a").header("X-API-Key", "k-live-0123456789")
        struct Cause: Error, CustomStringConvertible {
            var description: String { "upstream said: bad key k-live-0123456789\r\n" }
        }
        let response = NetworkResponse(
            statusCode: 401, headers: ["Content-Type": "text/plain"], body: Data("key k-live-0123456789".utf8)
        )
        let error = NetworkError(
            code: .unacceptableStatus, message: "401 for k-live-0123456789", request: request,
            response: response,
            underlyingError: Cause())

        // When it is described
        let description = error.description

        // Then the secret is nowhere, and the cause's line break is shown as an escape
        #expect(!description.contains("k-live-0123456789"))
        #expect(description.contains("  cause: upstream said: bad key <redacted>\\r\\n"))
    }
}
