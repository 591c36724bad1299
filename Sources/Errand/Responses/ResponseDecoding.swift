import Foundation
import Synchronization

/// The default decoding shared by every request.
enum ResponseDecoding {
    /// One decoder for every request that does not bring its own; `JSONDecoder` is thread-safe.
    static let defaultDecoder = JSONDecoder()

    /// Whether the type is one that takes the body raw, so JSON `Accept` would be wrong.
    static func isRaw(_ type: Any.Type) -> Bool {
        type == Data.self || type == String.self
    }

    /// Decodes `response` into `type`.
    ///
    /// This runs unspecialised for every request, so the common path names no type built from
    /// `Value` (an `as? Value` needs `Optional<Value>`, looked up at run time even when the cast is
    /// never reached): the casts live in functions of their own, reached only when they apply.
    static func decode<Value: Decodable>(
        _ type: Value.Type, from response: NetworkResponse, decoder: JSONDecoder
    )
        throws -> Value
    {
        if Value.self == Data.self || Value.self == String.self || Value.self == EmptyResponse.self {
            return try decodeWithoutJSON(type, from: response)
        }
        if response.body.isEmpty {
            throw NetworkError(
                code: .decoding,
                message: "The \(response.statusCode) response has an empty body, so there is no "
                    + "\(Value.self) to decode; use EmptyResponse as the response type if none is expected.",
                request: response.request, response: response)
        }
        let value = try decoder.decode(Value.self, from: jsonBytes(of: response))
        guard StatusCodeTypes.includes(Value.self) else { return value }
        return filling(value, withStatusOf: response)
    }

    /// `Data`, `String` and `EmptyResponse`, which take the body as it is or not at all.
    @inline(never)
    private static func decodeWithoutJSON<Value>(_ type: Value.Type, from response: NetworkResponse) throws
        -> Value
    {
        if let raw = response.body as? Value { return raw }
        if Value.self == String.self, let text = try response.strictText() as? Value { return text }
        if let empty = EmptyResponse() as? Value { return empty }
        throw NetworkError(
            code: .decoding, message: "\(Value.self) cannot be read without JSON.", request: response.request,
            response: response)
    }

    /// `value` with the response's status code set, for an `HTTPResponseDecodable` type.
    @inline(never)
    private static func filling<Value>(_ value: Value, withStatusOf response: NetworkResponse) -> Value {
        guard var withStatus = value as? any HTTPResponseDecodable else { return value }
        withStatus.statusCode = response.statusCode
        return withStatus as? Value ?? value
    }

    /// The body as UTF-8 for `JSONDecoder`.
    ///
    /// `JSONDecoder` reads UTF-8, UTF-16 and UTF-32 itself (by the byte order mark or the zero
    /// bytes of the first characters), so the bytes go to it as they are, unless `Content-Type`
    /// names another charset Errand decodes (ISO-8859-1, windows-1252, UTF-16): then they are
    /// decoded strictly in that charset first. RFC 8259 gives `application/json` no charset
    /// parameter, so one Errand does not know is ignored rather than refused.
    static func jsonBytes(of response: NetworkResponse) throws(NetworkError) -> Data {
        guard let label = response.charset, let charset = TextDecoding.Charset(label: label),
            !charset.isUTF8Compatible
        else { return response.body }
        switch TextDecoding.decode(response.body, as: charset) {
        case .success(let text): return Data(text.utf8)
        case .failure(let failure): throw response.textError(failure)
        }
    }

    /// The `decoding` error for a decoder's failure, naming the coding path and showing the body.
    static func error(_ error: any Error, decoding type: Any.Type, response: NetworkResponse) -> NetworkError
    {
        if let networkError = error as? NetworkError { return networkError }
        return NetworkError(
            code: .decoding,
            message: "Could not decode \(type) from the \(response.statusCode) response: "
                + explain(error) + invalidUTF8(error, in: response) + "\n  body: " + response.bodySnippet(),
            request: response.request, response: response, underlyingError: error)
    }

    /// Where JSON that failed to parse stops being UTF-8, when that is why it failed; `JSONDecoder`
    /// on Linux only says the data is not valid JSON.
    private static func invalidUTF8(_ error: any Error, in response: NetworkResponse) -> String {
        guard case .dataCorrupted = error as? DecodingError,
            response.charset.flatMap(TextDecoding.Charset.init(label:))?.isUTF8Compatible ?? true,
            !response.body.prefix(4).contains(0), !response.body.starts(with: [0xFE, 0xFF]),
            !response.body.starts(with: [0xFF, 0xFE]),
            case .failure(let failure) = TextDecoding.decode(response.body, as: .utf8)
        else { return "" }
        return "; the body is not \(failure.reason)"
    }

    /// A one-line account of a `DecodingError`: what was expected, and where.
    private static func explain(_ error: any Error) -> String {
        guard let decodingError = error as? DecodingError else { return "\(error)" }
        switch decodingError {
        case .typeMismatch(let expected, let context):
            return "expected \(expected) at \(path(context.codingPath)): \(context.debugDescription)"
        case .valueNotFound(let expected, let context):
            return "expected \(expected) at \(path(context.codingPath)) but found null"
        case .keyNotFound(let key, let context):
            return "no value for key \"\(key.stringValue)\" at \(path(context.codingPath))"
        case .dataCorrupted(let context):
            let underlying = (context.underlyingError as? NSError)?.userInfo[NSDebugDescriptionErrorKey]
            return "the data is not valid JSON at \(path(context.codingPath)): "
                + (underlying.map { "\($0)" } ?? context.debugDescription)
        @unknown default:
            return "\(decodingError)"
        }
    }

    /// A coding path as `users[0].address.city`, or `the top level`.
    static func path(_ codingPath: [any CodingKey]) -> String {
        guard !codingPath.isEmpty else { return "the top level" }
        var result = ""
        for key in codingPath {
            if let index = key.intValue {
                result += "[\(index)]"
            } else {
                result += result.isEmpty ? key.stringValue : "." + key.stringValue
            }
        }
        return result
    }
}

/// Which decoded types want the status code set: `HTTPResponseDecodable` ones.
///
/// Asking the runtime whether a type conforms to a protocol is a lookup in a shared table on
/// every request. Nearly every type asked about does not, and a client decodes one type far more
/// often than any other, so the last type found not to conform is remembered.
enum StatusCodeTypes {
    private static let lastTypeWithout = Atomic<UInt>(0)

    /// Whether `type` is an `HTTPResponseDecodable` type.
    static func includes(_ type: Any.Type) -> Bool {
        let key = UInt(bitPattern: ObjectIdentifier(type))
        if lastTypeWithout.load(ordering: .relaxed) == key { return false }
        if type is any HTTPResponseDecodable.Type { return true }
        lastTypeWithout.store(key, ordering: .relaxed)
        return false
    }
}
