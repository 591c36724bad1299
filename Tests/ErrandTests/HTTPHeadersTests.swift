import Errand
import Testing

@Suite struct HTTPHeadersTests {
    @Test func looksUpNamesIgnoringCase() {
        let headers: HTTPHeaders = ["Content-Type": "application/json", "X-Trace": "1"]
        #expect(headers["content-type"] == "application/json")
        #expect(headers["X-TRACE"] == "1")
        #expect(headers["missing"] == nil)
    }

    @Test func setReplacesEveryFieldOfTheNameInPlace() {
        var headers: HTTPHeaders = ["A": "1", "b": "2", "B": "3", "C": "4"]
        headers.set("B", "new")
        #expect(headers.fields.map(\.name) == ["A", "B", "C"])
        #expect(headers["b"] == "new")
    }

    @Test func addKeepsRepeatedFields() {
        var headers = HTTPHeaders()
        headers.add("Set-Cookie", "a=1")
        headers.add("set-cookie", "b=2")
        #expect(headers.values(for: "SET-COOKIE") == ["a=1", "b=2"])
        headers.remove("Set-Cookie")
        #expect(headers.isEmpty)
    }

    @Test func equalityIgnoresNameCaseButNotValues() {
        #expect(HTTPHeaders(["Accept": "x"]) == HTTPHeaders(["accept": "x"]))
        #expect(HTTPHeaders(["Accept": "x"]) != HTTPHeaders(["Accept": "X"]))
        #expect(Set([HTTPHeaders(["Accept": "x"]), HTTPHeaders(["ACCEPT": "x"])]).count == 1)
    }

    @Test func mergingDefaultsKeepsExistingValues() {
        let headers: HTTPHeaders = ["Accept": "text/html"]
        let merged = headers.merging(defaults: ["accept": "application/json", "User-Agent": "errand"])
        #expect(merged["Accept"] == "text/html")
        #expect(merged["user-agent"] == "errand")
    }
}
