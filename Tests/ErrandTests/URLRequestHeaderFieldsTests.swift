import Foundation
import Testing

@testable import Errand

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The header fields a request hands to `URLRequest`, set all at once.
@Suite struct URLRequestHeaderFieldsTests {
    @Test func namesGoOutAsWrittenAndRepeatedOnesAreJoinedAsAddValueJoinsThem() {
        // Given fields with a name repeated in another case
        var headers = HTTPHeaders()
        headers.add("Accept", "application/json")
        headers.add("x-trace", "a")
        headers.add("X-Trace", "b")
        headers.add("X-TRACE", "c")

        // When they become a URLRequest's fields
        let fields = RequestData.headerFields(headers)

        // Then each name appears once, as first written, with its values in order
        #expect(fields == ["Accept": "application/json", "x-trace": "a,b,c"])
    }

    @Test func theURLRequestCarriesThemAndLooksThemUpIgnoringCase() throws {
        // Given a request with headers
        let request = RequestData.get("/a").header("Authorization", "Bearer t").header("X-Id", "7")

        // When its URLRequest is built
        let urlRequest = try request.urlRequest(baseURL: URL(string: "https://example.com"), timeout: 5)

        // Then the fields are there, found in any case
        #expect(urlRequest.value(forHTTPHeaderField: "authorization") == "Bearer t")
        #expect(urlRequest.value(forHTTPHeaderField: "X-ID") == "7")
    }
}
