import Errand
import Foundation

/// Tells, in one pass without allocating, whether a JSON text may hold a key that redaction
/// hides, so that the flight recorder walks only the bodies that can hold one.
///
/// A key is a quoted string; the probe compares the text right after each `"` with the
/// normalised names (`access_token`, `accessToken` and `Access-Token` all read `accesstoken`),
/// skipping `-`, `_`, `.` and spaces and ignoring ASCII case, up to the closing quote. It
/// answers "maybe" for any `\u` escape (a key could hide behind one) and when a name is not
/// ASCII, so a "no" is always safe; a value spelled like a name only costs a walk.
struct JSONKeyProbe: Sendable {
    /// The normalised names, bucketed by their first byte.
    private let buckets: [[[UInt8]]]
    private let alwaysMaybe: Bool

    /// Prepares a probe for names already normalised with `SecretVocabulary.normalized(_:)`.
    init(normalizedNames: Set<String>) {
        var buckets = [[[UInt8]]](repeating: [], count: 256)
        var alwaysMaybe = false
        for name in normalizedNames {
            let bytes = Array(name.utf8)
            guard let first = bytes.first else { continue }
            if bytes.contains(where: { $0 >= 0x80 }) { alwaysMaybe = true }
            buckets[Int(first)].append(bytes)
        }
        self.buckets = buckets
        self.alwaysMaybe = alwaysMaybe
    }

    /// Whether `body` may hold one of the names as a key; `false` only when it cannot.
    func mayHoldKey(in body: Data) -> Bool {
        if alwaysMaybe { return true }
        return body.withUnsafeBytes { raw in
            let bytes = raw.bindMemory(to: UInt8.self)
            var index = 0
            while index < bytes.count {
                let byte = bytes[index]
                index += 1
                if byte == 0x5C, index < bytes.count, bytes[index] == 0x75 { return true }
                guard byte == 0x22 else { continue }
                var start = index
                while start < bytes.count, Self.isSeparator(bytes[start]) { start += 1 }
                guard start < bytes.count else { return false }
                for name in buckets[Int(Self.lowered(bytes[start]))]
                where Self.matches(name, in: bytes, at: start) {
                    return true
                }
            }
            return false
        }
    }

    private static func matches(_ name: [UInt8], in bytes: UnsafeBufferPointer<UInt8>, at start: Int) -> Bool
    {
        var position = start
        var matched = 0
        while matched < name.count {
            guard position < bytes.count else { return false }
            let byte = bytes[position]
            position += 1
            if isSeparator(byte) { continue }
            guard lowered(byte) == name[matched] else { return false }
            matched += 1
        }
        while position < bytes.count, isSeparator(bytes[position]) { position += 1 }
        return position < bytes.count && bytes[position] == 0x22
    }

    private static func isSeparator(_ byte: UInt8) -> Bool {
        byte == 0x2D || byte == 0x5F || byte == 0x2E || byte == 0x20
    }

    private static func lowered(_ byte: UInt8) -> UInt8 {
        byte >= 0x41 && byte <= 0x5A ? byte | 0x20 : byte
    }
}
