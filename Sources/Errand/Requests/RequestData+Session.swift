/// The session a request belongs to, carried with it so that the auth policy further in signs
/// it with that session's tokens or not at all; see ``SessionStamper``.
///
/// Equal to every other mark and hashed as nothing: two requests that differ only in when they
/// were made are the same request.
package struct SessionMark: Hashable, Sendable {
    var stamp: TokenLedger.Stamp?

    package static func == (lhs: SessionMark, rhs: SessionMark) -> Bool { true }
    package func hash(into hasher: inout Hasher) {}
}

extension RequestData {
    /// The session this request was made in, when a policy stamped it.
    package var session: TokenLedger.Stamp? {
        get { sessionMark.stamp }
        set { sessionMark.stamp = newValue }
    }
}
