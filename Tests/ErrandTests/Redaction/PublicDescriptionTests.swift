import Errand
import ErrandPolicies
import Foundation
import Testing

/// Every public description quotes caller and server text on its own line, escaped, and shows
/// no secret value in clear.
@Suite struct PublicDescriptionTests {
    /// Line breaks, NUL, ESC, an OSC title sequence, a bidi override and DEL.
    static let hostile = "a\r\nforged: line\u{0}\u{1B}[31m\u{1B}]0;title\u{7}\u{202E}z\u{7F}"

    /// Whether `text` is one line with no control character, separator or bidi override.
    static func isOneSafeLine(_ text: String) -> Bool {
        !text.unicodeScalars.contains { scalar in
            scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value) || scalar == "\u{2028}"
                || scalar == "\u{2029}" || (0x202A...0x202E).contains(scalar.value)
        }
    }

    @Test func anExpiredSessionEscapesItsReason() {
        // Given a session ended by a refresher whose error text holds a line break and an OSC
        let session = ExpiredSession(generation: 3, reason: Self.hostile)
        // When it is described, Then it is one safe line, the reason shown escaped
        #expect(Self.isOneSafeLine(session.description), "\(session.description)")
        #expect(session.description.hasPrefix("session 3 expired: a\\r\\nforged"))
    }

    @Test func headersAreEscapedAndTheirSecretValuesRedacted() {
        // Given headers with a bearer token, a cookie, and a value holding controls
        let headers: HTTPHeaders = [
            "Authorization": "Bearer TOPSECRETTOKEN", "Cookie": "sid=C00KIEVALUE1",
            "X-Note": Self.hostile,
        ]
        // When they are described
        let lines = headers.description.split(separator: "\n", omittingEmptySubsequences: false)

        // Then each field is one safe line, and no secret value shows
        #expect(lines.count == 3)
        for line in lines { #expect(Self.isOneSafeLine(String(line)), "\(line)") }
        #expect(!headers.description.contains("TOPSECRETTOKEN"))
        #expect(!headers.description.contains("C00KIEVALUE1"))
        #expect(headers.description.contains("Authorization: <redacted>"))
    }

    @Test func aMethodMadeFromHostileTextIsEscaped() {
        let method = HTTPMethod(rawValue: Self.hostile)
        #expect(Self.isOneSafeLine(method.description), "\(method.description)")
        #expect(HTTPMethod.get.description == "GET")
    }

    @Test func aBodyEscapesItsContentType() {
        let body = RequestData.Body.raw(Data("x".utf8), contentType: Self.hostile)
        #expect(Self.isOneSafeLine(body.description), "\(body.description)")
        #expect(body.description.hasSuffix(", 1 bytes"))
    }

    @Test func aStubEscapesItsPathAndHidesItsSecrets() {
        // Given a stub whose path holds controls, user info and a secret query value
        let stub = InMemoryDispatcher.Stub(
            .get, "https://u:PassW0rd77@h.example/a\(Self.hostile)?key=AIzaSTUB77", responses: [])
        // When it is described, Then it is one safe line without the secrets
        #expect(Self.isOneSafeLine(stub.description), "\(stub.description)")
        #expect(!stub.description.contains("PassW0rd77"))
        #expect(!stub.description.contains("AIzaSTUB77"))
    }
}
