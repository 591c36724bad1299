import Foundation
import Testing

@testable import Errand

/// What a lenient read finds in a body that cannot be read whole, and when it can be trusted.
@Suite struct UnreadableBodySecretsTests {
    let vocabulary = SecretVocabulary.default

    @Test(arguments: [
        (#"{"password": "S3cretPw9", "#, ["S3cretPw9"]),
        (#"{"password": "S3cretPw9""#, ["S3cretPw9"]),
        (#"{"password": "S3cr"#, ["S3cr"]),
        (#"{"password": "S3\u00e9\"x\u00"#, ["S3é\"x"]),
        (#"{"a": [1, {"token": ["t-000001", {"k": "t-000002"#, ["t-000001", "t-000002"]),
        (#"{"password": tru"#, ["tru"]),
        (#"{"password":"#, []),
        (#"[{"id": 1}, {"secret": 123456"#, ["123456"]),
    ])
    func jsonCutShortGivesUpEverySecretAsFarAsItWasSent(body: String, secrets: [String]) {
        let read = vocabulary.unreadableBodySecrets(Data(body.utf8), contentType: "application/json")
        #expect(read.secrets == secrets)
        #expect(read.isComplete)
    }

    @Test(arguments: [
        #"{"note" "x", "password": "S3cretPw9"}"#,
        #"{"a": 1}} {"password": "S3cretPw9"}"#,
        #"{"password": }, "token": "t-000001"}"#,
    ])
    func jsonBrokenBeforeASecretNameCannotBeTrusted(body: String) {
        let read = vocabulary.unreadableBodySecrets(Data(body.utf8), contentType: "application/json")
        #expect(!read.isComplete, "\(read)")
    }

    @Test func jsonBrokenAfterItsSecretsIsTrusted() {
        let read = vocabulary.unreadableBodySecrets(
            Data(#"{"password": "S3cretPw9"}} trailing"#.utf8), contentType: "application/json")
        #expect(read.secrets == ["S3cretPw9"])
        #expect(read.isComplete)
    }

    @Test func otherUnreadableBodiesAreTrustedOnlyWhenTheyNameNoSecret() {
        let latin1 = Data([0x70, 0x61, 0x73, 0x73, 0x77, 0x6F, 0x72, 0x64, 0x3D, 0xE9])  // password=é
        #expect(
            !vocabulary.unreadableBodySecrets(latin1, contentType: "application/x-www-form-urlencoded")
                .isComplete)
        #expect(
            vocabulary.unreadableBodySecrets(
                Data([0x61, 0x3D, 0xE9]), contentType: "application/x-www-form-urlencoded"
            ).isComplete)
        #expect(
            !vocabulary.unreadableBodySecrets(Data("token: x".utf8), contentType: "multipart/form-data")
                .isComplete)
    }

    @Test func theSecretsOfABodyCutShortAreAmongTheRequestsSecretValues() {
        let request = RequestData.post("/x").body(
            .raw(Data(#"{"password": "S3cretPw9", "#.utf8), contentType: "application/json"))
        #expect(vocabulary.secretValues(of: request).contains("S3cretPw9"))
        #expect(!vocabulary.answersMayEchoUnknownSecrets(of: request))
        #expect(vocabulary.redactedBody(request.body?.data ?? Data(), contentType: "application/json") == nil)
    }

    @Test func aReadableBodyIsRedactedAsBefore() {
        let body = Data(#"{"password":"S3cretPw9","name":"ann"}"#.utf8)
        let redacted = vocabulary.redactedBodyAndSecrets(body, contentType: "application/json")
        #expect(redacted?.data == Data(#"{"password":"<redacted>","name":"ann"}"#.utf8))
        #expect(redacted?.secrets == ["S3cretPw9"])
    }
}
