import Errand
import ErrandReplay
import ErrandTestSupport
import Foundation
import Testing

/// Recording through an upstream (here an in-memory one): what is written, and when.
@Suite struct ReplayRecordingTests {
    let files: CassetteFolder
    let upstream = InMemoryDispatcher()

    init() throws {
        files = try CassetteFolder()
        upstream.stub(.get, "/users", response: .json(["Ada", "Grace"]))
        upstream.stub(.get, "/down", response: .failure(.transport, message: "Connection refused."))
        upstream.stub(.get, "/slow", response: .failure(.timedOut, message: "No answer."))
    }

    func recorder(
        _ mode: ReplayDispatcher.Mode = .once, upstream: (any NetworkDispatcher)? = nil,
        _ configure: (inout ReplayDispatcher.Configuration) -> Void = { _ in }
    ) -> ReplayDispatcher {
        ReplayDispatcher(
            cassette: files.cassette, baseURL: testBaseURL, mode: mode, upstream: upstream ?? self.upstream,
            configuration: testConfiguration(configure))
    }

    func replayer(_ configure: (inout ReplayDispatcher.Configuration) -> Void = { _ in }) -> ReplayDispatcher
    {
        ReplayDispatcher(
            cassette: files.cassette, baseURL: testBaseURL, mode: .replayOnly, upstream: ForbiddenUpstream(),
            configuration: testConfiguration(configure))
    }

    @Test func writesTheCassetteAfterEachRecordingCreatingItsFolders() async throws {
        defer { files.remove() }
        let recorder = recorder()
        #expect(!FileManager.default.fileExists(atPath: files.cassette.deletingLastPathComponent().path))
        _ = try await recorder.dispatch(.get("/users"))
        #expect(try files.read().entries.count == 1)
        _ = try await recorder.dispatch(.get("/users").query("page", "2"))
        let written = try files.read()
        #expect(
            written.entries.map(\.request.url) == [
                "https://api.example.com/users", "https://api.example.com/users?page=2",
            ])
        #expect(written.log.creator.name == "Errand")
        #expect(written.entries[0].startedDateTime == Date(timeIntervalSince1970: 1_700_000_000))
        #expect(written.entries[0].response.content.text == #"["Ada","Grace"]"#)
        // Text stays readable text in the file
        #expect(try files.bytes().contains(#""text": "[\"Ada\",\"Grace\"]""#))
    }

    @Test(arguments: [("/down", NetworkError.Code.transport), ("/slow", .timedOut)])
    func recordsFailuresAndReplaysThemAsTheSameCode(path: String, code: NetworkError.Code) async throws {
        defer { files.remove() }
        // When a request fails upstream while recording, Then the failure is delivered and recorded
        let recorded = await #expect(throws: NetworkError.self) { try await recorder().dispatch(.get(path)) }
        #expect(recorded?.code == code)
        let entry = try #require(try files.read().entries.first)
        #expect(entry.response.status == 0)
        #expect(entry.response.error?.hasPrefix("\(code.rawValue): ") == true)
        // When replayed, Then it fails the same way, without the network
        let replayed = await #expect(throws: NetworkError.self) { try await replayer().dispatch(.get(path)) }
        #expect(replayed?.code == code)
    }

    @Test func cancellingWhileRecordingEndsAtOnceAndRecordsNothing() async throws {
        defer { files.remove() }
        // Given an upstream that answers after a second on a manual clock
        let clock = ManualClock()
        let slow = InMemoryDispatcher(latency: .seconds(1), clock: clock)
        slow.stub(.get, "/users", response: .text("late"))
        let probe = CallbackProbe<NetworkResponse>()
        // When the request is cancelled while it waits
        let call = recorder(upstream: slow).dispatch(
            request: .get("/users"), onSuccess: probe.onSuccess, onError: probe.onError)
        await clock.waitForSleepers()
        call.cancel()
        // Then it ends with cancelled at once, once, and nothing is written
        #expect(probe.deliveries.count == 1)
        #expect(probe.deliveries.first?.failure?.code == .cancelled)
        clock.advance(by: .seconds(2))
        await waitUntil("the upstream delivered") { slow.receivedRequests.count == 1 }
        #expect(probe.deliveries.count == 1)
        #expect(!FileManager.default.fileExists(atPath: files.cassette.path))
    }

    @Test func recordsTheTimeTakenOnTheInjectedClock() async throws {
        defer { files.remove() }
        let clock = ManualClock()
        let slow = InMemoryDispatcher(latency: .milliseconds(250), clock: clock)
        slow.stub(.get, "/users", response: .text("late"))
        let recorder = recorder(upstream: slow) { $0.clock = clock }
        async let response = recorder.dispatch(.get("/users"))
        await clock.waitForSleepers()
        clock.advance(by: .milliseconds(250))
        #expect(try await response.text == "late")
        let entry = try #require(try files.read().entries.first)
        #expect(entry.time == 250)
        #expect(entry.timings.wait == 250)
    }

    @Test func replaysInstantlyByDefaultOrAfterTheRecordedTimeTimesAFactor() async throws {
        defer { files.remove() }
        try files.write(archive([("GET", "https://api.example.com/users", 200, "users")]))  // time 10 ms
        // Instant: delivered before dispatch returns
        let instant = CallbackProbe<NetworkResponse>()
        replayer().dispatch(request: .get("/users"), onSuccess: instant.onSuccess, onError: instant.onError)
        #expect(instant.deliveries.count == 1)
        // Recorded time times 3: delivered after 30 ms on the clock, not before
        let clock = ManualClock()
        let timed = replayer {
            $0.whenExhausted = .repeatLast
            $0.timing = .recorded(factor: 3)
            $0.clock = clock
        }
        let probe = CallbackProbe<NetworkResponse>()
        timed.dispatch(request: .get("/users"), onSuccess: probe.onSuccess, onError: probe.onError)
        await clock.waitForSleepers()
        clock.advance(by: .milliseconds(29))
        await Task.yield()
        #expect(probe.deliveries.isEmpty)
        clock.advance(by: .milliseconds(1))
        #expect(try await probe.first().get().text == "users")
        // Cancelling during the wait ends the request at once
        let cancelled = CallbackProbe<NetworkResponse>()
        let call = timed.dispatch(
            request: .get("/users"), onSuccess: cancelled.onSuccess, onError: cancelled.onError)
        call.cancel()
        #expect(cancelled.deliveries.first?.failure?.code == .cancelled)
    }

    @Test func recordsAndReplaysTenMegabyteBodies() async throws {
        defer { files.remove() }
        // Given 10 MB of binary bytes up and down, and a megabyte of JSON text
        let chunk = Data((0..<65_536).map { UInt8(truncatingIfNeeded: $0 &* 2_654_435_761 >> 13) })
        var binary = Data()
        for index in 0..<153 { binary.append(chunk.dropFirst(index)) }
        binary = binary.prefix(10_000_000)
        let text = Data(
            ("[" + String(repeating: #""abcdefghijklmnopqrstuvwxyz0123456789",\#n"#, count: 26_315) + "0]")
                .utf8)
        upstream.stub(.get, "/big", response: .data(binary))
        upstream.stub(.put, "/big", response: .data(text, contentType: "application/json"))
        let upload = RequestData.put("/big").body(.raw(binary, contentType: "application/octet-stream"))
        // When recorded, Then the bodies arrive whole
        let recorder = recorder()
        #expect(try await recorder.dispatch(.get("/big")).body == binary)
        #expect(try await recorder.dispatch(upload).body == text)
        let file = try files.bytes()
        let size = file.count
        #expect(binary.count == 10_000_000)
        #expect(file.contains(#""encoding": "base64""#))
        #expect(size > 26_000_000)
        // When replayed, Then the same bytes come back
        let replayer = replayer()
        #expect(try await replayer.dispatch(.get("/big")).body == binary)
        #expect(try await replayer.dispatch(upload).body == text)
        try replayer.assertAllPlayed()
    }

    @Test func reRecordingTheSameTrafficWritesTheSameBytes() async throws {
        defer { files.remove() }
        upstream.stub(.post, "/users", response: .json(["id": 3]))
        let session: [RequestData] = [
            .get("/users"), .post("/users").body(.form(["name": "Ada"])), .get("/down"), .get("/users"),
        ]
        var files: [Data] = []
        for _ in 0..<2 {
            let recorder = recorder(.recordAll) { $0.clock = ManualClock() }
            for request in session { _ = try? await recorder.dispatch(request) }
            files.append(try self.files.bytes())
        }
        #expect(files[0] == files[1])
        #expect(try HAR(data: files[0]).encoded() == files[0])
    }
}
