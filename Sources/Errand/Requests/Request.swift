/// A request made on the spot from a ``RequestData``, for calls not worth a type of their own.
///
/// ```swift
/// let user = try await Request<User>(.get("/users/1")).execute(dispatcher: dispatcher)
/// ```
public struct Request<Response: Decodable & Sendable>: RequestType {
    /// The decoded response type.
    public typealias ResponseType = Response

    /// The request's description.
    public var data: RequestData

    /// Creates a request from its description.
    public init(_ data: RequestData) {
        self.data = data
    }
}
