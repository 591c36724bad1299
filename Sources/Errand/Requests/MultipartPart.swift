import Foundation

/// One part of a `multipart/form-data` body: a text field or a file.
public struct MultipartPart: Hashable, Sendable {
    /// The form field name.
    public var name: String
    /// The file name, for a file part.
    public var fileName: String?
    /// The part's content type; `nil` for a plain text field.
    public var contentType: String?
    /// The part's bytes.
    public var data: Data

    /// Creates a part.
    public init(name: String, fileName: String? = nil, contentType: String? = nil, data: Data) {
        self.name = name
        self.fileName = fileName
        self.contentType = contentType
        self.data = data
    }

    /// A text field.
    public static func field(_ name: String, _ value: String) -> MultipartPart {
        MultipartPart(name: name, data: Data(value.utf8))
    }

    /// A file.
    ///
    /// - Parameters:
    ///   - name: The form field name.
    ///   - fileName: The file name the server sees.
    ///   - contentType: The file's type; `application/octet-stream` by default.
    ///   - data: The file's bytes.
    public static func file(
        _ name: String, fileName: String, contentType: String = "application/octet-stream", data: Data
    ) -> MultipartPart {
        MultipartPart(name: name, fileName: fileName, contentType: contentType, data: data)
    }

    /// A boundary that occurs in none of the parts, so it cannot end one early.
    static func uniqueBoundary(avoiding parts: [MultipartPart]) -> String {
        while true {
            let candidate =
                "errand-boundary-" + UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased()
            let marker = Data(candidate.utf8)
            if !parts.contains(where: { $0.data.range(of: marker) != nil || $0.name.contains(candidate) }) {
                return candidate
            }
        }
    }

    /// Why `parts` cannot be encoded: a content type holding a control character; `nil` when they can.
    static func problem(in parts: [MultipartPart]) -> String? {
        for part in parts {
            if let contentType = part.contentType, let problem = RequestData.fieldValueProblem(contentType) {
                return "the content type of part \(EscapedText.quoted(part.name)) cannot be sent: \(problem)"
            }
        }
        return nil
    }

    /// The body bytes for `parts` (RFC 7578).
    static func encode(_ parts: [MultipartPart], boundary: String) -> Data {
        var body = Data()
        for part in parts {
            var head = "--\(boundary)\r\nContent-Disposition: form-data; name=\"\(quoted(part.name))\""
            if let fileName = part.fileName {
                head += "; filename=\"\(quoted(fileName))\""
            }
            head += "\r\n"
            if let contentType = part.contentType {
                head += "Content-Type: \(contentType)\r\n"
            }
            head += "\r\n"
            body.append(Data(head.utf8))
            body.append(part.data)
            body.append(Data("\r\n".utf8))
        }
        body.append(Data("--\(boundary)--\r\n".utf8))
        return body
    }

    /// Escapes a quoted-string parameter value as HTML forms do.
    private static func quoted(_ value: String) -> String {
        value.replacingOccurrences(of: "\"", with: "%22")
            .replacingOccurrences(of: "\r", with: "%0D")
            .replacingOccurrences(of: "\n", with: "%0A")
    }
}
