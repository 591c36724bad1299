import Foundation

/// The passwords the example types: the demo server's accounts and the wrong one its recording
/// of a refused sign-in uses, and how to find them in a recording in any spelling it could hold.
enum DemoPasswords {
    static let all = ["emilyspass", "michaelwpass", "wrong"]

    /// Whether `password` is in `text` as a JSON string, a form or query value, or inside
    /// `Basic` credentials.
    static func occurs(_ password: String, in text: String) -> Bool {
        let basic = ["emilys", "michaelw"].map { Data("\($0):\(password)".utf8).base64EncodedString() }
        let spellings =
            [#""\#(password)""#, #"\"\#(password)\""#, "=\(password)&", "=\(password)\"", ":\(password)@"]
            + basic
        return spellings.contains { text.contains($0) } || (password.count > 5 && text.contains(password))
    }
}
