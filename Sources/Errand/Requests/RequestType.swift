import Foundation

/// A request your app can send: a description of it, and the type its answer decodes into.
///
/// ```swift
/// struct GetAllUsers: RequestType {
///     typealias ResponseType = [User]
///     var data: RequestData { RequestData(path: "/users") }
/// }
/// let users = try await GetAllUsers().execute(dispatcher: dispatcher)
/// ```
///
/// Every other requirement has a default. Override ``acceptableStatusCodes`` or ``validate(_:)``
/// to change which answers count as success, ``decoder`` to change JSON decoding, or
/// ``decode(_:)`` to decode some other way. A `Data` response type gets the raw body, a `String`
/// the body decoded strictly in its charset (see ``NetworkResponse/decodedText()``),
/// ``EmptyResponse`` accepts an empty body or a 204, and an ``HTTPResponseDecodable`` type gets
/// its status code filled in.
public protocol RequestType: Sendable {
    /// The type the response body decodes into.
    associatedtype ResponseType: Sendable

    /// The request's description: path, method, headers, query, body and policies.
    var data: RequestData { get }

    /// The status codes that count as success; `200..<300` by default.
    var acceptableStatusCodes: Range<Int> { get }

    /// The JSON decoder used by the default ``decode(_:)``.
    var decoder: JSONDecoder { get }

    /// Checks a response before it is decoded.
    ///
    /// The default accepts the codes in ``acceptableStatusCodes``.
    ///
    /// - Throws: Any error to reject the response. Errand reports it as `unacceptableStatus`,
    ///   keeping the response and the thrown error.
    func validate(_ response: NetworkResponse) throws

    /// Turns an accepted response into the response type.
    ///
    /// - Throws: Any error; Errand reports it as `decoding`, keeping the response.
    func decode(_ response: NetworkResponse) throws -> ResponseType
}

extension RequestType {
    /// `200..<300`.
    public var acceptableStatusCodes: Range<Int> { 200..<300 }

    /// A shared `JSONDecoder` with the default strategies.
    public var decoder: JSONDecoder { ResponseDecoding.defaultDecoder }

    /// Accepts the response when its status is in ``acceptableStatusCodes``.
    public func validate(_ response: NetworkResponse) throws {
        guard acceptableStatusCodes.contains(response.statusCode) else {
            throw NetworkError(
                code: .unacceptableStatus,
                message: "The server answered \(response.statusCode) "
                    + "\(HTTPStatus.reason(for: response.statusCode)); expected a status in "
                    + "\(acceptableStatusCodes.lowerBound)..<\(acceptableStatusCodes.upperBound).",
                request: response.request, response: response)
        }
    }
}

extension RequestType where ResponseType: Decodable {
    /// Decodes the body: raw for `Data`, text in the body's charset for `String` (strictly: a
    /// byte that is not valid is a `decoding` error), nothing for ``EmptyResponse``, JSON with
    /// ``decoder`` otherwise.
    public func decode(_ response: NetworkResponse) throws -> ResponseType {
        try ResponseDecoding.decode(ResponseType.self, from: response, decoder: decoder)
    }
}
