import Errand
import ErrandReplay
import Foundation
import Testing

/// A request without a recording fails with a message that says what to do about it.
@Suite struct ReplayMissMessageTests {
    let files: CassetteFolder

    init() throws {
        files = try CassetteFolder()
    }

    func miss(
        _ request: RequestData, in entries: [HAR.Entry], mode: ReplayDispatcher.Mode = .replayOnly,
        before: [RequestData] = []
    ) async throws -> NetworkError {
        try files.write(cassette(entries))
        let replay = ReplayDispatcher(
            cassette: files.cassette, baseURL: testBaseURL, mode: mode, configuration: testConfiguration())
        for earlier in before { _ = try await replay.dispatch(earlier) }
        let error = await #expect(throws: NetworkError.self) { try await replay.dispatch(request) }
        return try #require(error)
    }

    static let users = [
        exchange(
            "POST", "https://api.example.com/users?page=1", body: #"{"user":{"id":2,"name":"Ada"}}"#,
            answer: "0"),
        exchange(
            "POST", "https://api.example.com/users?page=2", body: #"{"user":{"id":1,"name":"Ada"}}"#,
            answer: "1"),
        exchange("GET", "https://api.example.com/users?page=2", answer: "2"),
        exchange("GET", "https://api.example.com/orders/9", answer: "3"),
        exchange("DELETE", "https://api.example.com/accounts/1/sessions", answer: "4"),
    ]

    static let request = RequestData.post("/users").query("page", "2")
        .body(.raw(Data(#"{"user":{"name":"Ada","id":2}}"#.utf8), contentType: "application/json"))

    @Test func namesTheRequestTheCassetteAndTheMode() async throws {
        defer { files.remove() }
        let error = try await miss(Self.request, in: Self.users)
        #expect(error.code == .unmatchedRequest)
        #expect(error.request == Self.request)
        let lines = error.message.split(separator: "\n").map(String.init)
        #expect(lines[0] == "No recording matches POST https://api.example.com/users?page=2.")
        #expect(lines[1] == "Cassette: \(files.cassette.path) (5 recordings, 0 played).")
        #expect(lines[2] == "Mode: replayOnly.")
        #expect(error.description.contains("NetworkError.unmatchedRequest: No recording matches"))
    }

    @Test func showsTheThreeNearestRecordingsWithTheFieldsThatDiffer() async throws {
        defer { files.remove() }
        let error = try await miss(Self.request, in: Self.users)
        let expected = """
            Nearest recordings:
              entry 0: POST https://api.example.com/users?page=1
                - query item `page`: "1" recorded, "2" sent
              entry 1: POST https://api.example.com/users?page=2
                - body key `user.id`: 1 recorded, 2 sent
              entry 2: GET https://api.example.com/users?page=2
                - method: GET recorded, POST sent
                - body: none recorded, 30 bytes sent
            """
        #expect(error.message.contains(expected))
        #expect(!error.message.contains("orders"))
        #expect(!error.message.contains("sessions"))
    }

    @Test func namesMissingAndExtraQueryItemsPathsAndHosts() async throws {
        defer { files.remove() }
        let error = try await miss(
            .get("https://API.example.org/users/3").query("b", "1"),
            in: [exchange("GET", "https://api.example.com/users/2?a=1", answer: "x")])
        #expect(
            error.message.contains("host: https://api.example.com recorded, https://api.example.org sent"))
        #expect(error.message.contains("path: /users/2 recorded, /users/3 sent"))
        #expect(error.message.contains(#"query item `a`: "1" recorded, none sent"#))
        #expect(error.message.contains(#"query item `b`: none recorded, "1" sent"#))
    }

    @Test func saysWhenAMatchingRecordingWasAlreadyPlayed() async throws {
        defer { files.remove() }
        let error = try await miss(.get("/orders/9"), in: Self.users, before: [.get("/orders/9")])
        #expect(
            error.message.contains(
                "A recording matches this request but was already played: entry 3 (played 1)."))
        #expect(error.message.contains("set configuration.whenExhausted = .repeatLast"))
        #expect(error.message.contains("ERRAND_REPLAY_MODE=newEpisodes"))
        #expect(error.message.contains("(5 recordings, 1 played)"))
    }

    @Test func saysWhichModeRecordsIt() async throws {
        defer { files.remove() }
        let error = try await miss(Self.request, in: Self.users)
        #expect(
            error.message.split(separator: "\n").last.map(String.init)
                == "To record it, run once with ERRAND_REPLAY_MODE=newEpisodes (appends what is missing, keeps "
                + "the rest), or ERRAND_REPLAY_MODE=recordAll (records the whole cassette again).")
    }

    @Test func saysWhenTheCassetteDoesNotExist() async throws {
        defer { files.remove() }
        let replay = ReplayDispatcher(
            cassette: files.cassette, baseURL: testBaseURL, mode: .replayOnly,
            configuration: testConfiguration())
        let error = await #expect(throws: NetworkError.self) { try await replay.dispatch(.get("/users")) }
        #expect(error?.code == .cassette)
        #expect(error?.message.contains("The cassette \(files.cassette.path) does not exist") == true)
        #expect(error?.message.contains("record it on your machine with ERRAND_REPLAY_MODE=once") == true)
        #expect(error?.message.contains("Nearest") == false)
    }

    @Test func keepsSecretsOutOfTheMessage() async throws {
        defer { files.remove() }
        let error = try await miss(
            .get("/user").query("access_token", "s3cr3t-value"),
            in: [exchange("GET", "https://api.example.com/users?access_token=other-secret", answer: "x")])
        #expect(!error.message.contains("s3cr3t-value"))
        #expect(!error.message.contains("other-secret"))
        #expect(
            error.message.contains(
                "No recording matches GET https://api.example.com/user?access_token=%3Credacted%3E."))
        #expect(
            error.message.contains("entry 0: GET https://api.example.com/users?access_token=%3Credacted%3E"))
    }
}
