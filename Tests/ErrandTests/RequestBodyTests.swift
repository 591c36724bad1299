import Errand
import Foundation
import Testing

@Suite struct RequestBodyTests {
    @Test func jsonUsesTheGivenEncoder() throws {
        struct Payload: Encodable, Sendable { let firstName: String }
        let encoder = JSONEncoder()
        encoder.keyEncodingStrategy = .convertToSnakeCase
        let body = RequestData.Body.json(Payload(firstName: "Ada"), encoder: encoder)
        #expect(String(decoding: try #require(body.data), as: UTF8.self) == #"{"first_name":"Ada"}"#)
        #expect(body.contentType == "application/json")
    }

    @Test func anUnencodableJSONBodyIsReportedNotThrown() {
        let body = RequestData.Body.json(Double.nan)
        #expect(body.data == nil)
        #expect(body.encodingFailure != nil)
        do {
            try RequestData.post("/x").body(body).validate()
            Issue.record("expected invalidRequest")
        } catch let error as NetworkError {
            #expect(error.code == .invalidRequest)
            #expect(error.message.contains("could not be encoded"))
        } catch { Issue.record(error) }
    }

    @Test func formEncodesSpacePlusAmpersandEqualsAndNonASCII() throws {
        let body = RequestData.Body.form(["q": "a b+c&d=e", "name": "Zoë"])
        #expect(
            String(decoding: try #require(body.data), as: UTF8.self) == "q=a%20b%2Bc%26d%3De&name=Zo%C3%AB")
        #expect(body.contentType.hasPrefix("application/x-www-form-urlencoded"))
        #expect(body.formFields.map(\.name) == ["q", "name"])
    }

    @Test func multipartHasFieldsFilesAndAClosingBoundary() throws {
        let file = Data([0, 1, 2, 255])
        let body = RequestData.Body.multipart(
            [.field("title", "Hello"), .file("upload", fileName: "a.bin", data: file)], boundary: "XYZ")
        let data = try #require(body.data)
        let text = String(decoding: data, as: UTF8.self)
        #expect(body.contentType == "multipart/form-data; boundary=XYZ")
        #expect(text.hasPrefix("--XYZ\r\nContent-Disposition: form-data; name=\"title\"\r\n\r\nHello\r\n"))
        #expect(text.contains("Content-Disposition: form-data; name=\"upload\"; filename=\"a.bin\"\r\n"))
        #expect(text.contains("Content-Type: application/octet-stream\r\n\r\n"))
        #expect(data.range(of: file) != nil)
        #expect(text.hasSuffix("\r\n--XYZ--\r\n"))
    }

    @Test func theDefaultBoundaryNeverOccursInTheContent() throws {
        let parts: [MultipartPart] = (0..<50).map { index in
            .file(
                "f\(index)", fileName: "f.bin",
                data: Data((0..<512).map { UInt8(truncatingIfNeeded: $0 &* index) }))
        }
        let body = RequestData.Body.multipart(parts)
        let boundary = try #require(body.contentType.split(separator: "=").last).description
        let data = try #require(body.data)
        let delimiter = Data("--\(boundary)".utf8)
        var count = 0
        var range = data.startIndex..<data.endIndex
        while let found = data.range(of: delimiter, in: range) {
            count += 1
            range = found.upperBound..<data.endIndex
        }
        #expect(count == parts.count + 1)
        let second = RequestData.Body.multipart(parts)
        #expect(second.contentType != body.contentType)
    }
}
