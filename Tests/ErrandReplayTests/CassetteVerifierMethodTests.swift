import Errand
import ErrandReplay
import Foundation
import Testing

/// Which recorded methods a verification sends: safe ones by default, the rest when asked.
@Suite struct CassetteVerifierMethodTests {
    let live = InMemoryDispatcher()

    static let methods = ["GET", "HEAD", "OPTIONS", "PUT", "DELETE", "POST", "PATCH", "PURGE", "get"]

    func verify(_ configure: (inout CassetteVerifier.Options) -> Void = { _ in }) async -> VerificationReport
    {
        for method in Self.methods {
            live.stub(
                HTTPMethod(rawValue: method), "/items/1",
                response: .data(Data("{}".utf8), contentType: "application/json"))
        }
        let entries = Self.methods.map {
            CassetteVerifierTests.recorded($0, "https://api.example.com/items/1", json: "{}")
        }
        let har = HAR(creator: HAR.Creator(name: "test", version: "1"), entries: entries)
        return await CassetteVerifier(
            har: har, dispatcher: live, options: CassetteVerifier.Options(configure)
        )
        .verify()
    }

    @Test func onlySafeMethodsAreSentByDefault() async {
        // Given one recording per method, When the cassette is verified without opting in
        let report = await verify()
        // Then GET, HEAD and OPTIONS (in any case) are sent, and the rest reported as skipped
        #expect(live.receivedRequests.map(\.method.rawValue) == ["GET", "HEAD", "OPTIONS", "get"])
        #expect(report.verified == [0, 1, 2, 8])
        #expect(report.skipped.map(\.entry) == [3, 4, 5, 6, 7])
        #expect(report.skipped.allSatisfy { $0.reason == .unsafeMethod })
        #expect(report.description.contains("skipped entry 3: PUT https://api.example.com/items/1: not sent"))
    }

    @Test func unsafeMethodsAreSentWhenAllowedForAllOrForOneEntry() async {
        // When every method is allowed, Then every entry is sent
        let all = await verify { $0.allowsUnsafeMethods = true }
        #expect(all.skipped.isEmpty)
        #expect(all.verified.count == Self.methods.count)
        // When one entry is allowed, Then only it is sent besides the safe ones
        live.reset()
        let one = await verify { $0.allowsUnsafeEntries = [4] }
        #expect(one.verified == [0, 1, 2, 4, 8])
        #expect(live.receivedRequests.map(\.method.rawValue).contains("DELETE"))
    }
}
