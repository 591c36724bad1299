import Errand
import Foundation

extension VerificationReport {
    /// One way a live answer differs from the recorded one.
    public struct Difference: Sendable, Hashable, CustomStringConvertible {
        /// The index of the entry in the cassette, from 0, as replay's miss messages count.
        public let entry: Int
        /// The method sent.
        public let method: String
        /// The URL sent: the recorded one, with the base URL and mapping applied, the values of
        /// secret query items and any user info shown as the placeholder.
        public let url: String
        /// What changed.
        public let kind: Kind

        /// Creates a difference.
        ///
        /// - Parameters:
        ///   - entry: The entry's index in the cassette.
        ///   - method: The method sent.
        ///   - url: The URL sent.
        ///   - kind: What changed.
        public init(entry: Int, method: String, url: String, kind: Kind) {
            self.entry = entry
            self.method = method
            self.url = url
            self.kind = kind
        }

        /// The category of the change, as ``VerificationReport/isBreaking(for:)`` and
        /// `errand-verify --fail-on` name it.
        public var category: Category { kind.category }

        /// The entry, the request and the change, on one line, every control character escaped.
        public var description: String {
            "entry \(entry): \(EscapedText.line(method)) \(EscapedText.line(url)): \(kind)"
        }
    }

    /// What changed between a recorded answer and the live one.
    ///
    /// A path names a place in a JSON body: keys separated by dots and `[n]` for an element,
    /// such as `users[0].address.zip`; `$` is the whole body. Where the shapes of an array's
    /// elements differ, the path names the first element that shows the change.
    public enum Kind: Sendable, Hashable, CustomStringConvertible {
        /// The status code changed.
        case statusChanged(from: Int, to: Int)
        /// A header named in ``CassetteVerifier/Options/headers`` changed; `nil` where it was
        /// absent, the placeholder for a header the vocabulary names.
        case headerChanged(name: String, from: String?, to: String?)
        /// The live body has a key the recording did not have.
        case keyAdded(path: String)
        /// The live body lacks a key the recording had.
        case keyMissing(path: String)
        /// A value has another JSON type than it had.
        case typeChanged(path: String, from: JSONType, to: JSONType)
        /// A value that was recorded is `null` in the live body.
        case becameNull(path: String)
        /// A body is no longer JSON, is gone, or (with ``CassetteVerifier/Options/comparesOtherBodies``)
        /// differs byte for byte; the detail says which.
        case bodyChanged(detail: String)
        /// The live request failed before a response came.
        case requestFailed(code: String, message: String)

        /// The category this change belongs to.
        public var category: Category {
            switch self {
            case .statusChanged: .status
            case .headerChanged: .header
            case .keyAdded: .added
            case .keyMissing: .missing
            case .typeChanged: .type
            case .becameNull: .null
            case .bodyChanged: .body
            case .requestFailed: .failure
            }
        }

        /// The path in the body, for the changes that have one.
        public var path: String? {
            switch self {
            case .keyAdded(let path), .keyMissing(let path), .becameNull(let path): path
            case .typeChanged(let path, _, _): path
            default: nil
            }
        }

        /// The change in words, on one line: `missing key users[0].address.zip`. Paths, header
        /// values and messages come from servers and cassettes, so every control character in
        /// them is escaped.
        public var description: String {
            switch self {
            case .statusChanged(let from, let to): "status changed: \(from) recorded, \(to) live"
            case .headerChanged(let name, let from, let to):
                "header \(Self.line(name)) changed: \(Self.shown(from)) recorded, \(Self.shown(to)) live"
            case .keyAdded(let path): "added key \(Self.line(path))"
            case .keyMissing(let path): "missing key \(Self.line(path))"
            case .typeChanged(let path, let from, let to):
                "type changed at \(Self.line(path)): \(from) recorded, \(to) live"
            case .becameNull(let path): "null at \(Self.line(path)), where a value was recorded"
            case .bodyChanged(let detail): "body changed: \(Self.line(detail))"
            case .requestFailed(let code, let message):
                "request failed (\(Self.line(code))): \(Self.line(message))"
            }
        }

        private static func shown(_ value: String?) -> String {
            value.map { "\"\(line($0))\"" } ?? "absent"
        }

        private static func line(_ text: String) -> String {
            EscapedText.line(text)
        }
    }

    /// A kind of change, to choose what counts as breaking.
    public enum Category: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
        /// A key was added.
        case added
        /// A key is missing.
        case missing
        /// A value changed its JSON type.
        case type
        /// A recorded value is now `null`.
        case null
        /// The status code changed.
        case status
        /// A compared header changed.
        case header
        /// A body is no longer JSON, is gone, or differs when bodies are compared.
        case body
        /// The live request failed.
        case failure

        /// What breaks a client by default: everything but an added key.
        public static let breakingByDefault: Set<Category> = Set(allCases).subtracting([.added])

        /// The name, as `--fail-on` takes it.
        public var description: String { rawValue }
    }

    /// The type of a JSON value, as a shape compares it.
    public enum JSONType: String, Sendable, Hashable, CustomStringConvertible {
        /// An object.
        case object
        /// An array.
        case array
        /// A string.
        case string
        /// A number.
        case number
        /// `true` or `false`.
        case boolean
        /// `null`.
        case null
        /// The elements of an array that have different types.
        case mixed

        /// The name.
        public var description: String { rawValue }
    }

    /// An entry that was not sent, and why.
    public struct Skipped: Sendable, Hashable, CustomStringConvertible {
        /// The index of the entry in the cassette, from 0.
        public let entry: Int
        /// The recorded method.
        public let method: String
        /// The recorded URL, the values of secret query items and any user info shown as the
        /// placeholder.
        public let url: String
        /// Why it was not sent.
        public let reason: Reason

        /// Creates a skipped entry.
        ///
        /// - Parameters:
        ///   - entry: The entry's index in the cassette.
        ///   - method: The recorded method.
        ///   - url: The recorded URL.
        ///   - reason: Why it was not sent.
        public init(entry: Int, method: String, url: String, reason: Reason) {
            self.entry = entry
            self.method = method
            self.url = url
            self.reason = reason
        }

        /// The entry and the reason, on one line, every control character escaped; an unsafe
        /// method names the opt-ins that send this entry.
        public var description: String {
            let optIn =
                reason == .unsafeMethod
                ? "; send it with --send-entry \(entry) or every such entry with --allow-unsafe-methods "
                    + "(allowsUnsafeEntries, allowsUnsafeMethods)" : ""
            return "entry \(entry): \(EscapedText.line(method)) \(EscapedText.line(url)): \(reason)\(optIn)"
        }
    }

    /// Why an entry was not sent.
    public enum Reason: Sendable, Hashable, CustomStringConvertible {
        /// Its method is not safe (anything but `GET`, `HEAD` and `OPTIONS`), so sending it may
        /// change the server's state; opt in with ``CassetteVerifier/Options/allowsUnsafeMethods``
        /// or ``CassetteVerifier/Options/allowsUnsafeEntries``.
        case unsafeMethod
        /// The recording is a failure (status `0`), with no answer to compare.
        case recordedFailure
        /// ``CassetteVerifier/Options/mapRequest`` returned `nil` for it.
        case excluded
        /// A request could not be made from it; the message says why.
        case invalid(String)
        /// The task running the verification was cancelled before its answer came.
        case cancelled

        /// The reason in words.
        public var description: String {
            switch self {
            case .unsafeMethod:
                "not sent: the method is not safe and may change the server's state"
            case .recordedFailure: "not sent: the recording is a failure, with no answer to compare"
            case .excluded: "not sent: excluded by the request mapping"
            case .invalid(let message): "not sent: \(EscapedText.line(message))"
            case .cancelled: "not verified: the verification was cancelled"
            }
        }
    }
}
