import Errand
import Foundation

extension VerificationReport {
    /// The recorded credentials left out of a request because it went to another origin than
    /// the one they were recorded from, by name, never by value.
    public struct Withheld: Sendable, Hashable, CustomStringConvertible {
        /// The index of the entry in the cassette, from 0.
        public let entry: Int
        /// The method sent.
        public let method: String
        /// The URL sent, the values of secret query items shown as the placeholder.
        public let url: String
        /// What was left out, in the order found: `header Authorization`, `header Cookie`,
        /// `query item api_key`, `URL user info`, `body's secret values`.
        public let credentials: [String]

        /// Creates a note of withheld credentials.
        ///
        /// - Parameters:
        ///   - entry: The entry's index in the cassette.
        ///   - method: The method sent.
        ///   - url: The URL sent.
        ///   - credentials: What was left out, by name.
        public init(entry: Int, method: String, url: String, credentials: [String]) {
            self.entry = entry
            self.method = method
            self.url = url
            self.credentials = credentials
        }

        /// The entry and what was left out, on one line, every control character escaped, with
        /// the option that gives the other origin its own credentials.
        public var description: String {
            "entry \(entry): \(EscapedText.line(method)) \(EscapedText.line(url)): recorded "
                + credentials.map { EscapedText.line($0) }.joined(separator: ", ")
                + " not sent to another origin than the recorded one; give it its own with --set-header "
                + "(setHeaders)"
        }
    }
}
