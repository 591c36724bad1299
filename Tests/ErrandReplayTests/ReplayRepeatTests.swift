import Errand
import ErrandReplay
import Foundation
import Testing

/// Repeated requests get their recordings in recorded order; redirects are followed.
@Suite struct ReplayRepeatTests {
    let files: CassetteFolder

    init() throws {
        files = try CassetteFolder()
    }

    func replay(
        _ entries: [HAR.Entry], _ configure: (inout ReplayDispatcher.Configuration) -> Void = { _ in }
    ) throws -> ReplayDispatcher {
        try files.write(cassette(entries))
        return ReplayDispatcher(
            cassette: files.cassette, baseURL: testBaseURL, mode: .replayOnly, upstream: ForbiddenUpstream(),
            configuration: testConfiguration(configure))
    }

    static func polls(_ count: Int, path: String = "/poll") -> [HAR.Entry] {
        (1...count).map { exchange("GET", "https://api.example.com\(path)", answer: "\(path) \($0)") }
    }

    @Test func servesIdenticalRequestsInRecordedOrderThenFails() async throws {
        defer { files.remove() }
        let replay = try replay(Self.polls(3))
        var answers: [String] = []
        for _ in 0..<3 { answers.append(await replay.text(.get("/poll"))) }
        #expect(answers == ["/poll 1", "/poll 2", "/poll 3"])
        let fourth = await replay.text(.get("/poll"))
        #expect(fourth.hasPrefix("error unmatchedRequest"))
        #expect(
            fourth.contains("was already played: entry 0 (played 1), entry 1 (played 1), entry 2 (played 1)"))
    }

    @Test func repeatsTheLastRecordingWhenAsked() async throws {
        defer { files.remove() }
        let replay = try replay(Self.polls(2)) { $0.whenExhausted = .repeatLast }
        var answers: [String] = []
        for _ in 0..<4 { answers.append(await replay.text(.get("/poll"))) }
        #expect(answers == ["/poll 1", "/poll 2", "/poll 2", "/poll 2"])
    }

    @Test func parallelRequestsToDifferentEndpointsKeepTheirOwnOrder() async throws {
        defer { files.remove() }
        // Given two endpoints whose recordings are interleaved
        let interleaved = zip(Self.polls(20, path: "/a"), Self.polls(20, path: "/b")).flatMap { [$0, $1] }
        let replay = try replay(interleaved)
        // When each endpoint is polled in its own task, at the same time
        let answers = await withTaskGroup(of: (String, [String]).self) { group in
            for path in ["/a", "/b"] {
                group.addTask {
                    var answers: [String] = []
                    for _ in 0..<20 { answers.append(await replay.text(.get(path))) }
                    return (path, answers)
                }
            }
            return await group.reduce(into: [String: [String]]()) { $0[$1.0] = $1.1 }
        }
        // Then each endpoint got its recordings in recorded order
        #expect(answers["/a"] == (1...20).map { "/a \($0)" })
        #expect(answers["/b"] == (1...20).map { "/b \($0)" })
    }

    @Test func concurrentIdenticalRequestsEachGetTheirOwnRecording() async throws {
        defer { files.remove() }
        let replay = try replay(Self.polls(64))
        let answers = await withTaskGroup(of: String.self) { group in
            for _ in 0..<64 { group.addTask { await replay.text(.get("/poll")) } }
            return await group.reduce(into: [String]()) { $0.append($1) }
        }
        #expect(Set(answers) == Set((1...64).map { "/poll \($0)" }))
        try replay.assertAllPlayed()
    }

    @Test func followsARecordedRedirectChain() async throws {
        defer { files.remove() }
        // Given a chain as a proxy records it: 301, then 302 to another host, then the answer
        let replay = try replay([
            exchange(
                "GET", "https://api.example.com/old", status: 301, answer: "",
                extraResponseHeaders: [HAR.Header(name: "Location", value: "/middle")]),
            exchange("GET", "https://api.example.com/unrelated", answer: "unrelated"),
            exchange(
                "GET", "https://api.example.com/middle", status: 302, answer: "",
                extraResponseHeaders: [HAR.Header(name: "location", value: "https://cdn.example.com/new?x=1")]
            ),
            exchange("GET", "https://cdn.example.com/new?x=1", answer: "final"),
        ])
        // When the first URL is requested
        let response = try await replay.dispatch(.get("/old"))
        // Then the chain is followed to the final answer, whose URL it reports
        #expect(response.statusCode == 200)
        #expect(response.text == "final")
        #expect(response.url?.absoluteString == "https://cdn.example.com/new?x=1")
        #expect(replay.report.unplayed.map(\.entryIndex) == [1])
    }

    @Test func followsASeeOtherAfterAPostWithAGet() async throws {
        defer { files.remove() }
        let replay = try replay([
            exchange(
                "POST", "https://api.example.com/orders", body: #"{"item":1}"#, status: 303, answer: "",
                extraResponseHeaders: [HAR.Header(name: "Location", value: "/orders/7")]),
            exchange("GET", "https://api.example.com/orders/7", answer: "order 7"),
        ])
        let request = RequestData.post("/orders").body(
            .raw(Data(#"{"item":1}"#.utf8), contentType: "application/json"))
        #expect(await replay.text(request) == "order 7")
    }

    @Test func answersWithTheRedirectItselfWhenFollowingIsOff() async throws {
        defer { files.remove() }
        let entries = [
            exchange(
                "GET", "https://api.example.com/old", status: 302, answer: "moved",
                extraResponseHeaders: [HAR.Header(name: "Location", value: "/new")]),
            exchange("GET", "https://api.example.com/new", answer: "new"),
        ]
        let replay = try replay(entries) { $0.followsRedirects = false }
        let response = try await replay.dispatch(.get("/old"))
        #expect(response.statusCode == 302)
        #expect(response.headers["Location"] == "/new")
        #expect(await replay.text(.get("/new")) == "new")
    }

    @Test func followsOnlyToRecordingsMadeAfterTheRedirect() async throws {
        defer { files.remove() }
        // Given the target recorded before the redirect, not after it
        let replay = try replay([
            exchange("GET", "https://api.example.com/new", answer: "new"),
            exchange(
                "GET", "https://api.example.com/old", status: 302, answer: "moved",
                extraResponseHeaders: [HAR.Header(name: "Location", value: "/new")]),
        ])
        // Then the redirect comes back as it is
        #expect(try await replay.dispatch(.get("/old")).statusCode == 302)
    }
}
