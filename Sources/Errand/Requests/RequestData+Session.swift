/// What policies learn of a request on its way in and pass on with it: the session a request
/// belongs to, so that the auth policy further in signs it with that session's tokens or not at
/// all (the policies stamp it), its identity, so that a cache and a coalescer in one stack
/// compute it once, and the caller's progress handler, for whatever moves its bytes.
///
/// Equal to every other value and hashed as nothing: two requests that differ only in when they
/// were made are the same request.
package struct RequestMarks: Hashable, Sendable {
    package var stamp: SessionStamp?
    /// Cleared whenever the path, headers, query or session change, so it is never stale.
    package var identity: RequestIdentity?
    /// Where the transport, a fake or a replay reports the request's progress, if anywhere.
    package var progress: ProgressReporter?

    package static func == (lhs: RequestMarks, rhs: RequestMarks) -> Bool { true }
    package func hash(into hasher: inout Hasher) {}
}

extension RequestData {
    /// The session this request was made in, when a policy stamped it.
    package var session: SessionStamp? {
        get { marks.stamp }
        set {
            marks.stamp = newValue
            marks.identity = nil
        }
    }

    /// Whose request this is; computed on first use and kept with the request from then on.
    package var identity: RequestIdentity { marks.identity ?? RequestIdentity(self) }

    /// Computes the identity now, so that the policies further in read it instead of computing it.
    package mutating func noteIdentity() {
        if marks.identity == nil { marks.identity = RequestIdentity(self) }
    }

    /// This request, made by code outside the package from `original` (an interceptor may build
    /// a new one), with what `original` carried and it lacks: its session and its progress.
    ///
    /// The identity is left to be computed again, since the fields it comes from may differ.
    package func keepingMarks(of original: RequestData) -> RequestData {
        var kept = self
        if kept.marks.stamp == nil, let stamp = original.marks.stamp { kept.session = stamp }
        if kept.marks.progress == nil { kept.marks.progress = original.marks.progress }
        return kept
    }
}

/// The session a request was made in: a token ledger (by its random salt) and its generation
/// then. Kept here, with the request, because every policy that holds a request compares it.
package struct SessionStamp: Hashable, Sendable, CustomStringConvertible {
    /// The ledger's random salt.
    package let salt: UInt64
    /// The ledger's generation when the request was stamped.
    package let generation: UInt64

    /// A stamp of the ledger with `salt` at `generation`.
    package init(salt: UInt64, generation: UInt64) {
        self.salt = salt
        self.generation = generation
    }

    /// `session-<salt>-<generation>`: random, so it says nothing about the user.
    package var description: String { "session-\(String(salt, radix: 16))-\(generation)" }
}
