import Foundation
import Testing

@testable import Errand

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Which redirects keep a request's credentials: the same origin, however it is spelled.
@Suite struct RedirectCredentialsTests {
    private func redirected(to target: String, from original: String) throws -> URLRequest {
        var request = URLRequest(url: try #require(URL(string: target)))
        request.setValue("Bearer T0KEN", forHTTPHeaderField: "Authorization")
        request.setValue("sid=C00KIE", forHTTPHeaderField: "Cookie")
        request.setValue("K3Y", forHTTPHeaderField: "x_api_key")
        request.setValue("text/plain", forHTTPHeaderField: "Accept")
        return RedirectCredentials.withheld(from: request, after: URL(string: original))
    }

    @Test(arguments: [
        ("https://api.example.com/b", "https://api.example.com/a"),
        ("https://api.example.com:443/b", "https://API.Example.COM./a"),
        ("http://h.example:80/b", "HTTP://h.example/a"),
        ("https://xn--bcher-kva.example/b", "https://b\u{FC}cher.example/a"),
        ("http://[::1]:8080/b", "http://[0:0::1]:8080/a"),
    ])
    func theSameOriginKeepsEveryHeader(target: String, original: String) throws {
        let request = try redirected(to: target, from: original)
        #expect(request.value(forHTTPHeaderField: "Authorization") == "Bearer T0KEN")
        #expect(request.value(forHTTPHeaderField: "Cookie") == "sid=C00KIE")
        #expect(request.value(forHTTPHeaderField: "x_api_key") == "K3Y")
    }

    @Test(arguments: [
        ("http://api.example.com/b", "https://api.example.com/a"),
        ("https://api.example.com:8443/b", "https://api.example.com/a"),
        ("https://api.example.com.evil.example/b", "https://api.example.com/a"),
        ("https://localhost/b", "https://127.0.0.1/a"),
        ("custom://api.example.com/b", "custom://api.example.com/a"),
        ("https://api.example.com/b", "not a url\u{0}\r\n"),
    ])
    func anotherOriginGetsNoCredential(target: String, original: String) throws {
        let request = try redirected(to: target, from: original)
        #expect(request.value(forHTTPHeaderField: "Authorization") == nil)
        #expect(request.value(forHTTPHeaderField: "Cookie") == nil)
        #expect(request.value(forHTTPHeaderField: "x_api_key") == nil)
        #expect(request.value(forHTTPHeaderField: "Accept") == "text/plain")
        #expect(request.url?.absoluteString == target)
    }

    @Test func userInfoCarriedOverIsDroppedForAnotherOrigin() throws {
        let request = try redirected(
            to: "https://u:S3cretPw9@other.example/b?key=AIzaKEPT",
            from: "https://u:S3cretPw9@api.example.com/a")
        #expect(request.url?.absoluteString == "https://other.example/b?key=AIzaKEPT")
    }

    @Test func userInfoStaysForTheSameOrigin() throws {
        let request = try redirected(
            to: "https://u:S3cretPw9@api.example.com/b", from: "https://u:S3cretPw9@api.example.com/a")
        #expect(request.url?.user == "u")
    }
}
