import Errand
import Foundation

/// The JSON form of a ``TokenPair`` at rest, shared by the file and keychain storages.
///
/// `expiresAt` is written as the `Double` of `timeIntervalSinceReferenceDate`, which gives back
/// the very same `Date`; an ISO 8601 string (with or without fractional seconds, as older
/// versions wrote) is still read. A problem becomes a `tokenStorage` error that names the
/// place and what was wrong, instead of a bare `DecodingError`.
enum TokenStorageCoding {
    static let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .prettyPrinted]
        encoder.dateEncodingStrategy = .custom { date, encoder in
            var container = encoder.singleValueContainer()
            try container.encode(date.timeIntervalSinceReferenceDate)
        }
        return encoder
    }()

    static let decoder: JSONDecoder = {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .custom { decoder in
            let container = try decoder.singleValueContainer()
            if let seconds = try? container.decode(Double.self) {
                return Date(timeIntervalSinceReferenceDate: seconds)
            }
            let text = try container.decode(String.self)
            guard let date = parseISO8601(text) else {
                throw DecodingError.dataCorruptedError(
                    in: container, debugDescription: "\"\(text)\" is neither a number nor an ISO 8601 date")
            }
            return date
        }
        return decoder
    }()

    /// The pair in `data`, read from `place` (a file path, a keychain item).
    static func decode(_ data: Data, from place: String) throws(NetworkError) -> TokenPair {
        do {
            return try decoder.decode(TokenPair.self, from: data)
        } catch let error as DecodingError {
            throw failure("\(place) does not hold valid tokens: \(explain(error))", cause: error)
        } catch {
            throw failure("\(place) does not hold valid tokens: \(error)", cause: error)
        }
    }

    /// The JSON for `tokens`, to be written to `place`.
    static func encode(_ tokens: TokenPair, to place: String) throws(NetworkError) -> Data {
        do {
            return try encoder.encode(tokens)
        } catch {
            throw failure("the tokens could not be encoded for \(place): \(error)", cause: error)
        }
    }

    /// A `tokenStorage` error saying `problem` and how an app gets past it.
    static func failure(_ problem: String, cause: any Error) -> NetworkError {
        NetworkError(
            code: .tokenStorage,
            message: "The token storage failed: \(problem). Clear the storage and sign in again.",
            underlyingError: cause)
    }

    /// What a `DecodingError` means, in a sentence and with the key path it happened at.
    static func explain(_ error: DecodingError) -> String {
        func path(_ context: DecodingError.Context) -> String {
            context.codingPath.isEmpty
                ? "the top level" : context.codingPath.map(\.stringValue).joined(separator: ".")
        }
        switch error {
        case .dataCorrupted(let context) where context.codingPath.isEmpty:
            return "it is not valid JSON (\(context.debugDescription))"
        case .dataCorrupted(let context):
            return "\(path(context)) is malformed: \(context.debugDescription)"
        case .keyNotFound(let key, let context):
            return "the key \"\(key.stringValue)\" is missing at \(path(context))"
        case .typeMismatch(let type, let context):
            return "\(path(context)) is not a \(type)"
        case .valueNotFound(let type, let context):
            return "\(path(context)) is null where a \(type) belongs"
        @unknown default:
            return "\(error)"
        }
    }

    private static func parseISO8601(_ text: String) -> Date? {
        let formatter = ISO8601DateFormatter()
        if let date = formatter.date(from: text) { return date }
        formatter.formatOptions.insert(.withFractionalSeconds)
        return formatter.date(from: text)
    }
}
