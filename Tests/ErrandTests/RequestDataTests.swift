import Errand
import Foundation
import Testing

@Suite struct RequestDataTests {
    let base = URL(string: "https://api.example.com/v1")

    @Test func builderSetsEveryPart() {
        let request = RequestData.post("/users")
            .query("page", "2")
            .header("X-API-Key", "k")
            .body(.json(User(id: 1, name: "Ada")))
            .timeout(5)
            .authentication(.none)
        #expect(request.method == .post)
        #expect(request.path == "/users")
        #expect(request.query == [URLQueryItem(name: "page", value: "2")])
        #expect(request.headers["x-api-key"] == "k")
        #expect(request.body?.kind == .json)
        #expect(request.timeout == 5)
        #expect(request.authentication == .none)
    }

    @Test(arguments: [
        ("https://api.example.com/v1", "/users", "https://api.example.com/v1/users"),
        ("https://api.example.com/v1/", "/users", "https://api.example.com/v1/users"),
        ("https://api.example.com/v1/", "users", "https://api.example.com/v1/users"),
        ("https://api.example.com/v1", "users/", "https://api.example.com/v1/users/"),
        ("https://api.example.com", "", "https://api.example.com"),
    ])
    func resolvesRelativePathsWithExactlyOneSlash(base: String, path: String, expected: String) throws {
        let url = try RequestData(path: path).url(relativeTo: URL(string: base))
        #expect(url.absoluteString == expected)
    }

    @Test func absoluteURLsPassThrough() throws {
        let url = try RequestData(path: "http://other.example/x?y=1").url(relativeTo: base)
        #expect(url.absoluteString == "http://other.example/x?y=1")
    }

    @Test func queryItemsKeepOrderAndEscapeReservedCharacters() throws {
        let request = RequestData.get("/search").query("q", "swift & more").query("b", "1+1=2").query(
            "name", "Zoë"
        )
        .query("flag", nil)
        let url = try request.url(relativeTo: base)
        #expect(
            url.absoluteString
                == "https://api.example.com/v1/search?q=swift%20%26%20more&b=1%2B1%3D2&name=Zo%C3%AB&flag")
    }

    @Test func aPathWithAQueryGetsAnAmpersand() throws {
        let url = try RequestData.get("/search?sort=asc").query("q", "x").url(relativeTo: base)
        #expect(url.absoluteString == "https://api.example.com/v1/search?sort=asc&q=x")
    }

    @Test func aRelativePathWithoutBaseURLIsInvalid() {
        #expect(throws: NetworkError.self) { try RequestData.get("/users").url(relativeTo: nil) }
        do {
            _ = try RequestData.get("/users").url(relativeTo: nil)
        } catch let error as NetworkError {
            #expect(error.code == .invalidRequest)
            #expect(error.message.contains("no base URL"))
        } catch { Issue.record(error) }
    }

    @Test func aBodyOnGetOrHeadIsRefused() {
        for request in [RequestData.get("/x").body(.text("hi")), RequestData.head("/x").body(.text("hi"))] {
            #expect(throws: NetworkError.self) { try request.validate() }
            do { try request.validate() } catch let error as NetworkError {
                #expect(error.code == .invalidRequest)
            } catch { Issue.record(error) }
        }
        #expect(throws: Never.self) { try RequestData.post("/x").body(.text("hi")).validate() }
    }

    @Test func contentTypeComesFromTheBodyUnlessSet() {
        let json = RequestData.post("/x").body(.json(["a": 1]))
        #expect(json.effectiveHeaders["Content-Type"] == "application/json")
        let custom = json.header("content-type", "application/vnd.api+json")
        #expect(custom.effectiveHeaders.values(for: "Content-Type") == ["application/vnd.api+json"])
    }

    @Test func requestsCompareByWhatTheySend() {
        let a = RequestData.post("/users").body(.json(User(id: 1, name: "Ada")))
        let b = RequestData.post("/users").body(.json(User(id: 1, name: "Ada")))
        let c = RequestData.post("/users").body(.json(User(id: 2, name: "Ada")))
        #expect(a == b)
        #expect(a != c)
        #expect(Set([a, b, c]).count == 2)
    }

    @Test func describesMethodPathAndQuery() {
        #expect(RequestData.get("/search").query("q", "a b").description == "GET /search?q=a%20b")
    }

    @Test func descriptionsNeverShowSecretQueryValues() {
        let request = RequestData.get("/items").query("api_key", "k-123").query("page", "2").query(
            "Access_Token", "t")
        #expect(request.description == "GET /items?api_key=<redacted>&page=2&Access_Token=<redacted>")
        let error = NetworkError(code: .transport, message: "offline", request: request)
        #expect(!error.description.contains("k-123"))
    }
}
