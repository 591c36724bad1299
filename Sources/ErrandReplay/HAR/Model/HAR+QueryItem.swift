import Errand
import Foundation

extension HAR {
    /// One query item: a name and a value, percent-decoded.
    ///
    /// Used for the HAR `queryString` list, for ``Request/queryItems`` parsed from the URL, and
    /// for the `application/x-www-form-urlencoded` fields of ``PostData/params``.
    public struct QueryItem: Sendable, Equatable {
        /// The item's name, percent-decoded.
        public var name: String
        /// The item's value, percent-decoded; empty for an item written without `=`.
        public var value: String
        /// A free comment.
        public var comment: String?

        /// Creates a query item.
        ///
        /// - Parameters:
        ///   - name: The decoded name.
        ///   - value: The decoded value.
        ///   - comment: A free comment.
        public init(name: String, value: String, comment: String? = nil) {
            self.name = name
            self.value = value
            self.comment = comment
        }
    }
}

extension HAR.QueryItem: HARDecodable {
    private enum CodingKeys: String, CodingKey {
        case name, value, comment
    }

    init(harFrom decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.name = try container.decode(String.self, forKey: .name)
        self.value = try container.decodeIfPresent(String.self, forKey: .value) ?? ""
        self.comment = container.harLenientString(forKey: .comment)
    }
}

extension HAR.QueryItem: HAREncodable {
    var harJSON: HARJSON {
        var object = HARJSONObject()
        object.add("name", .string(name))
        object.add("value", .string(value))
        object.add("comment", ifPresent: comment)
        return object.json
    }
}

/// Splitting and decoding of URL query strings, without `URL`, so odd URLs never fail.
///
/// `URL(string:)` rejects strings that browsers record happily (spaces, `|`, raw non-ASCII);
/// this works on the text, so every recorded URL yields its query items.
enum HARURLQuery {
    /// The parts of a URL string: everything before `?`, the query, and the fragment.
    struct Parts {
        /// The scheme, authority and path: everything before `?` or `#`.
        var base: Substring
        /// The text between `?` and `#`, or `nil` when there is no `?`.
        var query: Substring?
        /// The text after `#`, or `nil` when there is no `#`.
        var fragment: Substring?
    }

    /// Splits a URL string at its first `?` and `#`.
    static func parts(of url: String) -> Parts {
        // One pass over the bytes: `?` and `#` are ASCII, so no grapheme breaking is needed.
        var hash: String.Index?
        var question: String.Index?
        var index = url.utf8.startIndex
        for byte in url.utf8 {
            if byte == UInt8(ascii: "#") {
                hash = index
                break
            }
            if byte == UInt8(ascii: "?"), question == nil { question = index }
            url.utf8.formIndex(after: &index)
        }
        let end = hash ?? url.endIndex
        let fragment = hash.map { url[url.utf8.index(after: $0)...] }
        guard let question else { return Parts(base: url[..<end], query: nil, fragment: fragment) }
        return Parts(
            base: url[..<question], query: url[url.utf8.index(after: question)..<end], fragment: fragment)
    }

    /// The raw `name=value` pieces of a query, split at `&`, empty pieces dropped.
    static func pieces(of query: Substring) -> [Substring] {
        query.split(separator: "&", omittingEmptySubsequences: true)
    }

    /// Splits one raw piece at its first `=` into a raw name and raw value.
    static func nameAndValue(of piece: Substring) -> (name: Substring, value: Substring?) {
        guard let equals = piece.firstIndex(of: "=") else { return (piece, nil) }
        return (piece[..<equals], piece[piece.index(after: equals)...])
    }

    /// The decoded items of a query string, in order.
    ///
    /// - Parameters:
    ///   - query: The text after `?`.
    ///   - plusIsSpace: Whether `+` means a space, as in form bodies; URLs keep `+` literal.
    static func items(in query: Substring, plusIsSpace: Bool) -> [HAR.QueryItem] {
        pieces(of: query).map { piece in
            let split = nameAndValue(of: piece)
            return HAR.QueryItem(
                name: PercentEncoding.unescape(split.name, plusIsSpace: plusIsSpace),
                value: split.value.map { PercentEncoding.unescape($0, plusIsSpace: plusIsSpace) } ?? ""
            )
        }
    }
}
