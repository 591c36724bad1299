import Foundation

/// Corrects the `Content-Encoding` and `Content-Length` headers of a response whose body is
/// stored decoded.
///
/// HAR holds response bodies decoded, and Errand records them decoded (URLSession has already
/// undone gzip and deflate). mitmproxy keeps the headers of the wire beside the decoded body: a
/// `Content-Encoding: gzip` and the compressed `Content-Length`. Replayed as they are, they
/// would describe bytes that are not there. The reader and the writer both apply this rule:
///
/// - Only a response with a stored, non-empty body and a `Content-Encoding` other than
///   `identity` is touched. An empty body belongs to a `HEAD` or a `304`, whose headers
///   describe a representation that was not sent.
/// - A `gzip` body that still starts with the gzip magic bytes is still compressed: it is left
///   as it is, headers included.
/// - Otherwise `Content-Encoding` is removed and every `Content-Length` is set to the length of
///   the stored body.
enum HARContentHeaders {
    /// The response with headers that describe its stored body.
    static func corrected(_ response: HAR.Response) -> HAR.Response {
        guard let body = response.content.body, !body.isEmpty else { return response }
        let encodings = response.headers.harValues(named: "Content-Encoding")
            .flatMap { $0.split(separator: ",") }
            .map { HARCaseInsensitive.key($0.trimmingCharacters(in: .whitespaces)) }
            .filter { !$0.isEmpty && $0 != "identity" }
        guard !encodings.isEmpty else { return response }
        if encodings.contains("gzip") || encodings.contains("x-gzip"), body.starts(with: [0x1F, 0x8B]) {
            return response
        }
        var result = response
        result.headers = response.headers.compactMap { header in
            if header.hasName("Content-Encoding") { return nil }
            guard header.hasName("Content-Length") else { return header }
            var corrected = header
            corrected.value = String(body.count)
            return corrected
        }
        return result
    }
}
