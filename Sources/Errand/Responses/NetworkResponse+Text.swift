import Foundation

extension NetworkResponse {
    /// The `charset` parameter of the `Content-Type` header, unquoted and lowercased, such as
    /// `"iso-8859-1"`; `nil` when there is none.
    public var charset: String? {
        TextDecoding.charsetLabel(inContentType: contentType)
    }

    /// The value of the first `Content-Type` field, whatever the case of its name.
    ///
    /// `headers["Content-Type"]` with a shortcut: every JSON body is decoded after this lookup,
    /// and servers and stubs nearly always spell the name so, which a plain comparison of two
    /// short strings confirms faster than a byte-by-byte case-insensitive one.
    var contentType: String? {
        for field in headers
        where field.name == "Content-Type" || field.name.caseInsensitiveEquals("Content-Type") {
            return field.value
        }
        return nil
    }

    /// The body as text in its charset, with every byte that is not valid there replaced by
    /// U+FFFD; for logs and messages, where something readable beats nothing.
    ///
    /// The charset is the one ``charset`` names, UTF-8 when there is none or when it is one
    /// Errand does not decode. ``decodedText()`` is the strict form.
    public var text: String {
        TextDecoding.decodeLossily(body, as: charset.flatMap(TextDecoding.Charset.init(label:)))
    }

    /// The body as text, decoded strictly in the charset of its `Content-Type`.
    ///
    /// This is how a `String` response type is decoded. The rules:
    /// - The charset is the `charset` parameter of `Content-Type` (quoted or not, any case);
    ///   UTF-8 when there is none.
    /// - Decoded: UTF-8, UTF-16 (byte order from the byte order mark, big-endian without one),
    ///   UTF-16LE, UTF-16BE, ISO-8859-1 (`latin1`), windows-1252 and US-ASCII, under their
    ///   usual aliases. A byte order mark is removed.
    /// - A byte that is not valid in the charset is an error that names its byte offset; so is
    ///   a charset Errand does not decode (it is never guessed).
    ///
    /// For the lenient form, override the request's `decode(_:)` to return ``text``.
    ///
    /// Declared with untyped `throws` so that `catch let error as NetworkError` compiles
    /// everywhere; `NetworkError` is the only error thrown.
    ///
    /// - Returns: The text.
    /// - Throws: `NetworkError` with code `decoding`, naming the byte offset of the first byte
    ///   that is not valid, or the charset that is not supported.
    public func decodedText() throws -> String {
        try strictText()
    }

    /// ``decodedText()`` with its error type known to the compiler.
    func strictText() throws(NetworkError) -> String {
        let label = charset
        var charset: TextDecoding.Charset?
        if let label {
            guard let known = TextDecoding.Charset(label: label) else {
                throw NetworkError(
                    code: .decoding,
                    message: "The body's charset \"\(label)\" (from Content-Type) is not one Errand decodes: "
                        + "UTF-8, UTF-16, UTF-16LE, UTF-16BE, ISO-8859-1, windows-1252 or US-ASCII. "
                        + "Override the request's decode(_:) to decode it another way.",
                    request: request, response: self)
            }
            charset = known
        }
        switch TextDecoding.decode(body, as: charset) {
        case .success(let text): return text
        case .failure(let failure): throw textError(failure)
        }
    }

    /// The `decoding` error for a body that is not valid text in its charset.
    func textError(_ failure: TextDecoding.Failure) -> NetworkError {
        let source = charset.map { "charset \"\($0)\" from Content-Type" } ?? "no charset given, so UTF-8"
        return NetworkError(
            code: .decoding,
            message: "The body is not \(failure.reason) (\(source)).",
            request: request, response: self)
    }
}
