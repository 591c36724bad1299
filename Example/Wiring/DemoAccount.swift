import Errand
import Foundation

/// The demo server's published account, the one the help text and the tour sign in with.
enum DemoAccount {
    static let user = "emilys"
    static let password = "emilyspass"

    /// Whether `request` signs in with other credentials than the demo account's.
    ///
    /// The recordings hold no password (it is redacted like every secret), so they cannot tell
    /// a wrong password from the right one by matching: sign-ins with other credentials are
    /// filed apart, in ``Recordings/otherSignIns``, while recording as while replaying.
    static func isOtherSignIn(_ request: RequestData) -> Bool {
        guard request.method == .post, request.path == "/auth/login", let body = request.body?.data,
            let credentials = try? JSONDecoder().decode(Login.Credentials.self, from: body)
        else { return false }
        return credentials.username != user || credentials.password != password
    }
}
