/// The response type for requests whose answer has no body worth decoding, such as a 204.
///
/// Decoding into `EmptyResponse` succeeds for an empty body, a 204, and ignores any body sent.
public struct EmptyResponse: Decodable, Hashable, Sendable {
    /// Creates the empty value.
    public init() {}

    /// Creates the empty value without reading anything.
    public init(from decoder: any Decoder) throws {}
}

/// A decodable response type that also wants the HTTP status code it came with.
///
/// After the body is decoded, ``statusCode`` is set from the response. Declare it as an optional
/// `var` so the synthesised decoder does not require it in the body:
///
/// ```swift
/// struct Created: HTTPResponseDecodable, Sendable {
///     let id: Int
///     var statusCode: Int?
/// }
/// ```
public protocol HTTPResponseDecodable: Decodable {
    /// The status code of the response this value was decoded from.
    var statusCode: Int? { get set }
}
