import Foundation

@testable import Errand

/// The multipart encoder, and reading its output back: parts made of the input's pieces.
enum MultipartFuzz {
    static func run(_ input: FuzzInput) {
        let chunks = input.chunks
        let boundary = chunks.count.isMultiple(of: 2) ? String(decoding: chunks[0], as: UTF8.self) : nil
        var parts: [MultipartPart] = []
        var index = boundary == nil ? 0 : 1
        while index < chunks.count {
            let name = String(decoding: chunks[index], as: UTF8.self)
            let data = index + 1 < chunks.count ? chunks[index + 1] : Data()
            let file = name.count % 3 == 0
            parts.append(
                MultipartPart(
                    name: name, fileName: file ? "\(name).bin" : nil, contentType: file ? name : nil,
                    data: data))
            index += 2
        }
        let body = RequestData.Body.multipart(parts, boundary: boundary)
        guard let data = body.data else { return }
        _ = SecretVocabulary.default.redactedBody(data, contentType: body.contentType)
        // The raw input read as a multipart body with each piece as its boundary.
        for candidate in chunks.prefix(2) {
            _ = SecretVocabulary.default.redactedMultipart(
                input.data, boundary: String(decoding: candidate, as: UTF8.self))
        }
        _ = MultipartSecretRedactor.boundary(ofContentType: input.text)
    }
}
