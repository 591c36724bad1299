import Foundation

/// Whose request this is: its credentials, and the session an auth policy signs it in.
///
/// Every policy that stores or shares an answer keys it on this, so that nothing fetched for one
/// identity is delivered to another: a `CachingDispatcher` entry answers only requests of the
/// identity that fetched it, a `CoalescingDispatcher` flight is shared only within one identity.
///
/// The credentials are the user info of an absolute path (`https://user:password@host`, sent as
/// `Basic` credentials), and the values of every header and query item (after the path's `?` or
/// in ``RequestData/query``) whose name ``SecretVocabulary/default`` hides, its query-only names
/// included: `Authorization`, `Proxy-Authorization`, `Cookie`, `X-API-Key`, `X-Auth-Token`,
/// `access_token`, `key`, … in any spelling. They are kept only as a SHA-256 digest, so an
/// identity can be stored (a `DiskCacheStore` keeps a keyed digest of it) without holding a secret. The session is the one a policy beneath will sign the request in (``RequestData``
/// carries it once a cache, coalescer, retry or queue in front of an `AuthenticatingDispatcher`
/// stamped it): random per sign-in, so it names no user and never matches a later launch.
///
/// A request with none of these is ``anonymous``.
public struct RequestIdentity: Hashable, Sendable, CustomStringConvertible {
    /// The digest of the request's own credentials; empty when it carries none.
    let credentials: String
    /// The session an auth policy beneath signs the request in, if any.
    let session: String?

    /// The identity of a request that carries no credentials and is signed by no session.
    public static let anonymous = RequestIdentity(credentials: "", session: nil)

    private init(credentials: String, session: String?) {
        self.credentials = credentials
        self.session = session
    }

    /// The identity of `request`, as a policy sees it: its own credentials and its session stamp.
    ///
    /// - Parameter request: The request.
    public init(_ request: RequestData) {
        self.init(credentials: Self.credentialDigest(of: request), session: request.session?.description)
    }

    /// Whether the request carries no credentials and is signed by no session.
    public var isAnonymous: Bool { credentials.isEmpty && session == nil }

    /// The identity as one string, for a store to keep: empty when anonymous; never a secret.
    public var key: String {
        guard let session else { return credentials }
        return credentials.isEmpty ? session : credentials + " " + session
    }

    /// `anonymous`, or the start of the digest and the session, which name no secret.
    public var description: String {
        isAnonymous ? "anonymous" : "identity \(String(key.prefix(20)))…"
    }

    private static let vocabulary = SecretVocabulary.default

    /// The digest of the credentials `request` carries; empty when it carries none.
    ///
    /// Headers are read with the query names too (a `Key` header counts): a value counted that
    /// is no credential costs a shared entry at most, a credential missed would share one.
    private static func credentialDigest(of request: RequestData) -> String {
        var pieces: [String] = []
        for header in request.headers where vocabulary.matchesQueryItem(header.name) {
            pieces.append("header \(header.name.lowercased())=\(header.value)")
        }
        for item in request.query where vocabulary.matchesQueryItem(item.name) {
            pieces.append("query \(SecretVocabulary.normalized(item.name))=\(item.value ?? "")")
        }
        if let mark = request.path.firstIndex(of: "?") {
            let query = request.path[request.path.index(after: mark)...].prefix { $0 != "#" }
            for item in PercentEncoding.queryItems(in: String(query))
            where vocabulary.matchesQueryItem(item.name) {
                pieces.append("query \(SecretVocabulary.normalized(item.name))=\(item.value ?? "")")
            }
        }
        // Sent as `Authorization: Basic`, whatever the vocabulary hides.
        if let userInfo = SecretVocabulary.userInfo(inURL: request.path) {
            pieces.append("user \(request.path[userInfo])")
        }
        guard !pieces.isEmpty else { return "" }
        // Each piece with its length first, so that no value can pass for two pieces.
        let text = pieces.sorted().map { "\($0.utf8.count):\($0)" }.joined()
        return "sha256:" + SHA256.hex(SHA256.hash(Data(text.utf8)))
    }
}
