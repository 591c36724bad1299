/// What happened to the signed-in session, as ``AuthState/events()`` reports it.
public enum AuthEvent: Sendable, Hashable, CustomStringConvertible {
    /// A user signed in.
    case loggedIn
    /// The user signed out.
    case loggedOut
    /// The session ended on its own: the tokens could not be renewed. Show the sign-in screen.
    case sessionExpired

    /// The event's name: `loggedIn`, `loggedOut` or `sessionExpired`.
    public var description: String {
        switch self {
        case .loggedIn: "loggedIn"
        case .loggedOut: "loggedOut"
        case .sessionExpired: "sessionExpired"
        }
    }
}
