import Foundation

/// The default decoding shared by every request.
enum ResponseDecoding {
    /// One decoder for every request that does not bring its own; `JSONDecoder` is thread-safe.
    static let defaultDecoder = JSONDecoder()

    /// Whether the type is one that takes the body raw, so JSON `Accept` would be wrong.
    static func isRaw(_ type: Any.Type) -> Bool {
        type == Data.self || type == String.self
    }

    /// Decodes `response` into `type`.
    static func decode<Value: Decodable>(
        _ type: Value.Type, from response: NetworkResponse, decoder: JSONDecoder
    )
        throws -> Value
    {
        if Value.self == Data.self, let raw = response.body as? Value { return raw }
        if Value.self == String.self, let text = String(decoding: response.body, as: UTF8.self) as? Value {
            return text
        }
        if Value.self == EmptyResponse.self, let empty = EmptyResponse() as? Value { return empty }
        if response.body.isEmpty {
            throw NetworkError(
                code: .decoding,
                message: "The \(response.statusCode) response has an empty body, so there is no "
                    + "\(Value.self) to decode; use EmptyResponse as the response type if none is expected.",
                request: response.request, response: response)
        }
        var value = try decoder.decode(Value.self, from: response.body)
        // The metatype check first: it is cheap, and most types are not HTTPResponseDecodable.
        if Value.self is any HTTPResponseDecodable.Type, var withStatus = value as? any HTTPResponseDecodable
        {
            withStatus.statusCode = response.statusCode
            if let filled = withStatus as? Value { value = filled }
        }
        return value
    }

    /// The `decoding` error for a decoder's failure, naming the coding path and showing the body.
    static func error(_ error: any Error, decoding type: Any.Type, response: NetworkResponse) -> NetworkError
    {
        if let networkError = error as? NetworkError { return networkError }
        return NetworkError(
            code: .decoding,
            message: "Could not decode \(type) from the \(response.statusCode) response: "
                + explain(error) + "\n  body: " + response.bodySnippet(),
            request: response.request, response: response, underlyingError: error)
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
