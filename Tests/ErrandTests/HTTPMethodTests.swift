import Errand
import Testing

@Suite struct HTTPMethodTests {
    @Test func isOpenToCustomMethods() {
        let propfind: HTTPMethod = "PROPFIND"
        #expect(propfind.rawValue == "PROPFIND")
        #expect(HTTPMethod.get == HTTPMethod(rawValue: "GET"))
    }

    @Test func knowsWhichMethodsAreIdempotentAndMayCarryABody() {
        #expect([HTTPMethod.get, .head, .put, .delete, .options].allSatisfy { $0.isIdempotent })
        #expect(![HTTPMethod.post, .patch].contains { $0.isIdempotent })
        #expect(!HTTPMethod.get.allowsBody && !HTTPMethod.head.allowsBody && HTTPMethod.post.allowsBody)
    }
}
