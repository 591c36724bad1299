import Errand
import ErrandTestSupport
import Foundation
import Testing

/// The header fields of a `URLSessionDispatcher` response: every one the server sent, in an order
/// that does not change from one response to the next.
@Suite(.enabled(if: LiveServer.httpbinAvailable, LiveServer.skipReason))
struct ResponseHeaderOrderLiveTests {
    @Test func fieldsComeSortedByNameIgnoringCase() async throws {
        // Given a server that sends fields whose names differ in case and in length
        let server = try LiveServer.require(LiveServer.httpbin, "ERRAND_HTTPBIN_URL")
        let dispatcher = URLSessionDispatcher(baseURL: server)
        let request = RequestData.get("/response-headers").query("b-Second", "1").query("A-first", "2")
            .query("a", "3").query("Ab", "4")
        // When the response arrives
        let response = try await dispatcher.dispatch(request)
        // Then every field is there, sorted as their lower-cased names sort
        let names = response.headers.map(\.name)
        #expect(names == names.sorted { $0.lowercased() < $1.lowercased() })
        #expect(response.headers["a-first"] == "2")
        #expect(response.headers["B-SECOND"] == "1")
        let positions = ["a", "A-first", "Ab", "b-Second"].map { name in
            names.firstIndex { $0.caseInsensitiveCompare(name) == .orderedSame }
        }
        #expect(positions.allSatisfy { $0 != nil })
        #expect(positions == positions.sorted { ($0 ?? 0) < ($1 ?? 0) })
    }
}
