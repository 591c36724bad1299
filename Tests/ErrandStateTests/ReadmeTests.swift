import Errand
import ErrandState
import Foundation
import Testing

@MainActor @Suite struct ReadmeTests {
    @Test func theCommandLineLoopDrivesTheSameModel() async {
        // Given a users API of two pages and a search
        let api = InMemoryDispatcher()
        api.stub(.get, "/users?page=1", response: .json((1...20).map { User(id: $0, name: "u\($0)") }))
        api.stub(.get, "/users?page=2", response: .json([User(id: 21, name: "Zoe")]))
        api.stub(.get, "/users/search?q=ada", response: .json([User(id: 3, name: "Ada")]))

        // When the loop reads three lines
        let screens = await runUsersCommand(api: api, lines: ["more", "ada", "clear"])

        // Then the list grew, the search showed its result, and clearing it showed the list
        #expect(screens[0].hasSuffix("u20, Zoe"))
        #expect(screens[1] == "Ada")
        #expect(screens[2] == screens[0])
    }

    @Test func theAuthSampleBuildsALoginModel() {
        let login = readmeAuthSample(base: URL(fileURLWithPath: "/"))
        #expect(!login.isLoggedIn)
    }
}
