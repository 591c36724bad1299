import Foundation

/// Replaces the values of chosen fields in a `multipart/form-data` body, leaving every other
/// byte where it was: the boundaries, each part's headers, and the parts not named secret.
package enum MultipartSecretRedactor {
    /// Redacts the parts whose `Content-Disposition` name `isSecret` accepts; `nil` when the
    /// body holds no part delimited by `boundary`.
    ///
    /// - Parameters:
    ///   - body: The body bytes.
    ///   - boundary: The boundary from the `Content-Type` parameter, without the leading `--`.
    ///   - placeholder: The text that replaces a part's content.
    ///   - isSecret: Whether a field name is secret.
    /// - Returns: The body with secret parts' content replaced, and the contents replaced.
    package static func redact(
        _ body: Data, boundary: String, placeholder: String, isSecret: (String) -> Bool
    ) -> SecretVocabulary.RedactedBody? {
        let bytes = Array(body)
        let delimiter = Array("--\(boundary)".utf8)
        let headEnd = Array("\r\n\r\n".utf8)
        var starts = positions(of: delimiter, in: bytes)
        guard starts.count >= 2 else { return nil }
        var output: [UInt8] = []
        var secrets: [String] = []
        var copied = 0
        starts.append(bytes.count)
        for (start, next) in zip(starts, starts.dropFirst()) where next <= bytes.count {
            let part = start + delimiter.count
            guard let headLength = positions(of: headEnd, in: Array(bytes[part..<next])).first else {
                continue
            }
            let contentStart = part + headLength + headEnd.count
            // The content ends before the CRLF that precedes the next delimiter.
            var contentEnd = next
            if contentEnd - 2 >= contentStart, bytes[contentEnd - 2] == 0x0D, bytes[contentEnd - 1] == 0x0A {
                contentEnd -= 2
            }
            let head = String(decoding: bytes[part..<(part + headLength)], as: UTF8.self)
            guard let name = fieldName(in: head), isSecret(name), contentEnd >= contentStart else { continue }
            output.append(contentsOf: bytes[copied..<contentStart])
            output.append(contentsOf: Array(placeholder.utf8))
            secrets.append(String(decoding: bytes[contentStart..<contentEnd], as: UTF8.self))
            copied = contentEnd
        }
        output.append(contentsOf: bytes[copied...])
        return SecretVocabulary.RedactedBody(data: Data(output), secrets: secrets)
    }

    /// The `name` parameter of a part's `Content-Disposition` header.
    private static func fieldName(in head: String) -> String? {
        for line in head.split(whereSeparator: \.isNewline)
        where line.lowercased().hasPrefix("content-disposition:") {
            for parameter in line.split(separator: ";").dropFirst() {
                let pair = parameter.split(separator: "=", maxSplits: 1)
                guard pair.count == 2, pair[0].trimmingCharacters(in: .whitespaces).lowercased() == "name"
                else { continue }
                var value = pair[1].trimmingCharacters(in: .whitespaces)
                if value.hasPrefix("\""), value.hasSuffix("\""), value.count >= 2 {
                    value = String(value.dropFirst().dropLast()).replacingOccurrences(of: "\\\"", with: "\"")
                }
                return value
            }
        }
        return nil
    }

    /// Every offset where `needle` starts in `bytes`.
    private static func positions(of needle: [UInt8], in bytes: [UInt8]) -> [Int] {
        guard let first = needle.first, bytes.count >= needle.count else { return [] }
        var result: [Int] = []
        var index = 0
        while index <= bytes.count - needle.count {
            if bytes[index] == first, bytes[index..<(index + needle.count)].elementsEqual(needle) {
                result.append(index)
                index += needle.count
            } else {
                index += 1
            }
        }
        return result
    }

    /// The `boundary` parameter of a `multipart/*` content type.
    package static func boundary(ofContentType contentType: String) -> String? {
        let parameters = contentType.split(separator: ";")
        guard let essence = parameters.first?.trimmingCharacters(in: .whitespaces).lowercased(),
            essence.hasPrefix("multipart/")
        else { return nil }
        for parameter in parameters.dropFirst() {
            let pair = parameter.split(separator: "=", maxSplits: 1)
            if pair.count == 2, pair[0].trimmingCharacters(in: .whitespaces).lowercased() == "boundary" {
                let value = pair[1].trimmingCharacters(in: .whitespaces)
                return value.hasPrefix("\"") && value.hasSuffix("\"") && value.count >= 2
                    ? String(value.dropFirst().dropLast()) : value
            }
        }
        return nil
    }
}
