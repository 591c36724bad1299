import Errand
import Foundation
import Testing

/// A request's description hides secret query values named in any spelling.
@Suite struct RequestDataSecretTests {
    @Test(arguments: ["access_token", "accessToken", "access-token", "AccessToken", "ACCESS_TOKEN"])
    func descriptionHidesEverySpellingOfASecretName(name: String) {
        // Given a request with a secret query item in one spelling
        let request = RequestData.get("/items").query(name, "SECRET-1").query("page", "2")
        // When described, Then the value is hidden and the rest shown
        #expect(request.description == "GET /items?\(name)=<redacted>&page=2")
    }

    @Test func descriptionHidesTheVocabularyAndKey() {
        let request = RequestData.get("/maps").query("key", "k-1").query("clientSecret", "c-1").query(
            "sig", "s-1")
        #expect(request.description == "GET /maps?key=<redacted>&clientSecret=<redacted>&sig=<redacted>")
        #expect(RequestData.secretQueryNames.isSuperset(of: SecretVocabulary.defaultNames))
    }

    @Test(arguments: [
        ("/items?token=SECRET-1&page=2", nil),  // relative, with no base URL
        ("http://a<b>/items?token=SECRET-1&page=2", nil),  // a host that cannot be sent
        ("http://host:port/items?page=2", "SECRET-1"),  // a port that is no number; a secret item
    ])
    func aURLThatCannotBeBuiltIsQuotedWithItsSecretsHidden(path: String, itemToken: String?) throws {
        // Given a request whose URL cannot be built, with a secret in its query
        var request = RequestData.get(path)
        if let itemToken { request = request.query("token", itemToken) }

        // When it is turned into a URL
        let error = try #require(throws: NetworkError.self) { try request.url(relativeTo: nil) }

        // Then the message alone, which is logged and shown on its own, quotes it without the secret
        #expect(error.code == .invalidRequest)
        #expect(!error.message.contains("SECRET-1"))
        #expect(error.message.contains("token=<redacted>"))
        #expect(error.message.contains("page=2"))
    }
}
