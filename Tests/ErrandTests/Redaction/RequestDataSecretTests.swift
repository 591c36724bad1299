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
}
