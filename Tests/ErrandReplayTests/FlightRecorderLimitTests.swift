import Errand
import ErrandTestSupport
import Foundation
import Testing

@testable import ErrandReplay

@Suite struct FlightRecorderLimitTests {
    private static let baseURL = URL(string: "https://api.example.com")

    @Test(arguments: [
        ("application/json", true), ("application/problem+json; charset=utf-8", true),
        ("  Application/JSON \t", true), ("text/json ;x=1", true), ("json", true),
        ("text/plain", false), ("application/jsonp", false), ("son", false), ("", false),
        ("text/plain; format=json", false), ("application/js on", false), ("json x", false),
    ])
    func jsonMediaTypesAreToldApartByTheirEssence(mimeType: String, isJSON: Bool) {
        // Given a media type as a server may write it, When it is read, Then only a JSON essence counts
        #expect(FlightRecorder.isJSON(mimeType) == isJSON)
    }

    @Test func theByteBudgetHoldsAndDropsTheOldestFirst() async throws {
        // Given a recorder with a budget of 20,000 bytes and answers of 3,000 bytes each
        let server = InMemoryDispatcher()
        server.stub(
            .get, "/items", response: .data(Data(repeating: 0x61, count: 3_000), contentType: "text/plain"))
        let recorder = FlightRecorder(
            FlightRecorder.Configuration(maximumBytes: 20_000, baseURL: Self.baseURL))

        // When 100 requests are recorded
        for index in 0..<100 {
            _ = try await recorder.recordedResponse(.get("/items").query("n", "\(index)"), through: server)
            #expect(recorder.byteCount <= 20_000)
        }

        // Then the budget held, and what is kept is the newest, in order, ending with the last
        let kept = recorder.har().entries
        #expect(kept.count >= 1 && kept.count < 100)
        #expect(kept.map { $0.request.queryItems.first?.value } == (100 - kept.count..<100).map { "\($0)" })
        #expect(kept.allSatisfy { $0.response.content.body?.count == 3_000 })
    }

    @Test func anExchangeLargerThanTheWholeBudgetIsKeptWithoutItsBodyAndANote() async throws {
        // Given a recorder with a budget of 10,000 bytes
        let server = InMemoryDispatcher()
        server.stub(
            .get, "/huge", response: .data(Data(repeating: 0x61, count: 50_000), contentType: "text/plain"))
        let recorder = FlightRecorder(
            FlightRecorder.Configuration(maximumBytes: 10_000, baseURL: Self.baseURL))

        // When an answer of 50,000 bytes is recorded
        _ = try await recorder.recordedResponse(.get("/huge"), through: server)

        // Then it is kept without its body, with its size and a note
        let entry = try #require(recorder.har().entries.first)
        #expect(entry.response.content.body == nil)
        #expect(entry.response.content.size == 50_000)
        #expect(entry.response.content.comment?.contains("byte budget") == true)
        #expect(recorder.byteCount <= 10_000)
    }

    @Test func exchangesOlderThanTheMaximumAgeAreDropped() async throws {
        // Given a recorder that keeps one minute, on a manual clock
        let clock = ManualClock()
        let server = InMemoryDispatcher()
        server.stub(.get, "/ping", response: .status(204))
        let recorder = FlightRecorder(
            FlightRecorder.Configuration(maximumAge: .seconds(60), baseURL: Self.baseURL), clock: clock)

        // When three exchanges end, 30 s pass, two more end, and 31 s pass
        for index in 0..<3 {
            _ = try await recorder.recordedResponse(.get("/ping").query("n", "\(index)"), through: server)
        }
        clock.advance(by: .seconds(30))
        for index in 3..<5 {
            _ = try await recorder.recordedResponse(.get("/ping").query("n", "\(index)"), through: server)
        }
        #expect(recorder.count == 5)
        clock.advance(by: .seconds(31))

        // Then only the two of the last minute are kept
        #expect(recorder.count == 2)
        #expect(recorder.har().entries.map { $0.request.queryItems.first?.value } == ["3", "4"])
        // and clearing forgets them
        recorder.clear()
        #expect(recorder.har().entries.isEmpty)
    }

    @Test func aFailedRequestIsKeptWithItsError() async throws {
        // Given a server whose connection resets
        let server = InMemoryDispatcher()
        server.stub(.get, "/flaky", response: .failure(.transport, message: "The connection was reset."))
        let recorder = FlightRecorder(FlightRecorder.Configuration(baseURL: Self.baseURL))

        // When the request fails through the recorder
        do {
            _ = try await recorder.recordedResponse(.get("/flaky"), through: server)
            Issue.record("expected a failure")
        } catch let error as NetworkError {
            #expect(error.code == .transport)
        } catch {
            Issue.record("unexpected \(error)")
        }

        // Then the written file holds it, status 0, with the code and message in `_error`
        let file = FileManager.default.temporaryDirectory.appendingPathComponent(
            "flight-\(UUID().uuidString).har")
        defer { try? FileManager.default.removeItem(at: file) }
        try recorder.write(to: file)
        let text = try String(contentsOf: file, encoding: .utf8)
        #expect(text.contains(#""_error": "transport: The connection was reset.""#))
        let entry = try #require(try HAR(contentsOf: file).entries.first)
        #expect(entry.response.status == 0)
        #expect(entry.request.url == "https://api.example.com/flaky")
        // and replays as the same failure
        guard case .failure(let replayed) = Recording(entry: entry).replay(for: .get("/flaky")) else {
            Issue.record("expected the failure to replay")
            return
        }
        #expect(replayed.code == .transport)
    }

    @Test func crossesTaskBoundaries() async throws {
        // Given a recorder, its configuration and its dispatcher made on one task
        let server = InMemoryDispatcher()
        server.stub(.get, "/x", response: .status(204))
        let configuration = FlightRecorder.Configuration(maximumEntries: 3, baseURL: Self.baseURL)
        let recorder = FlightRecorder(configuration)
        let dispatcher: FlightRecordingDispatcher = server.flightRecording(into: recorder)

        // When they are used from a detached task
        let kept = try await Task.detached {
            _ = try await dispatcher.dispatch(.get("/x"))
            return (configuration.maximumEntries, recorder.har().entries.count)
        }.value

        // Then they work there
        #expect(kept == (3, 1))
    }
}
