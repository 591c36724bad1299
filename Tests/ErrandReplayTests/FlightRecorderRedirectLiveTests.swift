import Errand
import ErrandReplay
import ErrandTestSupport
import Foundation
import Testing

/// Against httpbin: the flight recorder keeps the URL a redirect led to, redacted, and keeps no
/// final URL for an answer from the URL asked for.
@Suite(.enabled(if: LiveServer.httpbinAvailable, LiveServer.skipReason))
struct FlightRecorderRedirectLiveTests {
    @Test func theURLARedirectLedToIsKeptRedactedAndAPlainAnswerKeepsNone() async throws {
        // Given a recorder over the transport
        let base = try LiveServer.require(LiveServer.httpbin, "ERRAND_HTTPBIN_URL")
        let recorder = FlightRecorder(FlightRecorder.Configuration(baseURL: base))
        let dispatcher = URLSessionDispatcher(baseURL: base).flightRecording(into: recorder)

        // When a plain request, and one redirected to a URL with a key httpbin echoes, are recorded
        _ = try await dispatcher.dispatch(.get("/get"))
        let redirected = try await dispatcher.dispatch(
            RequestData.get("/redirect-to").query("url", "/get?api_key=K-LIVE-123456"))

        // Then the answer came from the second URL, and only that entry keeps it, redacted
        #expect(redirected.url?.absoluteString.contains("api_key=K-LIVE-123456") == true)
        let entries = recorder.har().log.entries
        #expect(entries.count == 2)
        #expect(entries[0].response.finalURL == nil)
        let final = try #require(entries[1].response.finalURL)
        #expect(final.hasSuffix("/get?api_key=%3Credacted%3E"))
        // And the key, which httpbin echoes in the body, is nowhere in the recording
        let encoded = String(decoding: try recorder.har().encoded(), as: UTF8.self)
        #expect(!encoded.contains("K-LIVE-123456"))
    }
}
