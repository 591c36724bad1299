import Foundation

/// Percent-encoding for query strings and form bodies.
enum PercentEncoding {
    /// RFC 3986 unreserved characters: everything else is escaped, so `+`, `&`, `=`, space and
    /// non-ASCII text arrive exactly as sent whatever the server's form parser does with `+`.
    private static let unreserved: CharacterSet = {
        var set = CharacterSet(charactersIn: "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789")
        set.insert(charactersIn: "-._~")
        return set
    }()

    /// Escapes one name or value.
    static func escape(_ string: String) -> String {
        string.addingPercentEncoding(withAllowedCharacters: unreserved) ?? string
    }

    /// `name=value&name2=value2`, in order; an item with a `nil` value is its name alone.
    static func queryString(_ items: [URLQueryItem]) -> String {
        items.map { item in
            guard let value = item.value else { return escape(item.name) }
            return escape(item.name) + "=" + escape(value)
        }
        .joined(separator: "&")
    }
}
