/// An HTTP request method.
///
/// An open set: the common methods are static members, and any other token can be made with
/// ``init(rawValue:)`` (for example `HTTPMethod(rawValue: "PROPFIND")`).
public struct HTTPMethod: RawRepresentable, Hashable, Sendable, ExpressibleByStringLiteral,
    CustomStringConvertible
{
    /// The method token as sent on the wire, in upper case for the common methods.
    public let rawValue: String

    /// Creates a method from its token.
    public init(rawValue: String) {
        self.rawValue = rawValue
    }

    /// Creates a method from a string literal such as `"PROPFIND"`.
    public init(stringLiteral value: String) {
        self.rawValue = value
    }

    /// The method token, escaped: a token made from text that is not one cannot break a line.
    public var description: String { EscapedText.line(rawValue) }

    /// `GET`.
    public static let get = HTTPMethod(rawValue: "GET")
    /// `POST`.
    public static let post = HTTPMethod(rawValue: "POST")
    /// `PUT`.
    public static let put = HTTPMethod(rawValue: "PUT")
    /// `PATCH`.
    public static let patch = HTTPMethod(rawValue: "PATCH")
    /// `DELETE`.
    public static let delete = HTTPMethod(rawValue: "DELETE")
    /// `HEAD`.
    public static let head = HTTPMethod(rawValue: "HEAD")
    /// `OPTIONS`.
    public static let options = HTTPMethod(rawValue: "OPTIONS")

    /// Whether sending the request twice has the same effect as sending it once (RFC 9110 §9.2.2).
    ///
    /// True for `GET`, `HEAD`, `PUT`, `DELETE`, `OPTIONS` and `TRACE`. Retry policies read it.
    public var isIdempotent: Bool {
        switch rawValue.uppercased() {
        case "GET", "HEAD", "PUT", "DELETE", "OPTIONS", "TRACE": true
        default: false
        }
    }

    /// Whether a request with this method may carry a body; `GET` and `HEAD` may not.
    public var allowsBody: Bool {
        switch rawValue.uppercased() {
        case "GET", "HEAD": false
        default: true
        }
    }
}
