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
///
/// Kept beside ``JSONReader`` because it buys its keep: a pre-filter that reads no tree and
/// allocates nothing. Without it, the `in-memory-recorded` workload (a flight recorder over an
/// in-memory stub, bodies without secret keys) took 2.2× the CPU time with the small payload
/// and 1.36× with the medium one (medians of 6 alternating runs each, 2026-12-08; the runs of
/// one build spread ±10–12% on a 2-core machine under other load).
struct JSONKeyProbe: Sendable {
    /// Every name's bytes, one after another, grouped by first byte.
    private let nameBytes: [UInt8]
    /// Where each name starts in ``nameBytes``, plus its end: name `i` is
    /// `nameBytes[nameStarts[i]..<nameStarts[i + 1]]`.
    private let nameStarts: [Int]
    /// The names starting with byte `b` are `firstNames[b]..<firstNames[b + 1]`.
    private let firstNames: [Int]
    /// Bit `b0 << 8 | b1` is set when a name starts with bytes `b0` and `b1`, or is `b0` alone
    /// (then `b1` is the closing quote): one test turns away almost every quoted text, before
    /// any name is compared.
    private let firstPairs: [UInt64]
    private let alwaysMaybe: Bool

    init(normalizedNames: Set<String>) {
        var buckets = [[[UInt8]]](repeating: [], count: 256)
        var firstPairs = [UInt64](repeating: 0, count: 1 << 10)
        var alwaysMaybe = false
        for name in normalizedNames.sorted() {
            let bytes = Array(name.utf8)
            guard let first = bytes.first else { continue }
            if bytes.contains(where: { $0 >= 0x80 }) { alwaysMaybe = true }
            buckets[Int(first)].append(bytes)
            let pair = Int(first) << 8 | Int(bytes.count > 1 ? bytes[1] : 0x22)
            firstPairs[pair >> 6] |= 1 << UInt64(pair & 63)
        }
        // Flat, so that the scan reads three buffers and retains nothing per quote.
        var nameBytes: [UInt8] = []
        var nameStarts: [Int] = []
        var firstNames: [Int] = []
        for bucket in buckets {
            firstNames.append(nameStarts.count)
            for name in bucket {
                nameStarts.append(nameBytes.count)
                nameBytes += name
            }
        }
        firstNames.append(nameStarts.count)
        nameStarts.append(nameBytes.count)
        self.nameBytes = nameBytes
        self.nameStarts = nameStarts
        self.firstNames = firstNames
        self.firstPairs = firstPairs
        self.alwaysMaybe = alwaysMaybe
    }

    /// Whether `body` may hold a key that redaction hides.
    ///
    /// - Parameter body: A JSON text, or anything else (then the answer is only less useful).
    /// - Returns: `false` only when no key in it can be one of the names.
    func mayHoldKey(in body: Data) -> Bool {
        if alwaysMaybe { return true }
        return body.withUnsafeBytes { raw in
            nameBytes.withUnsafeBufferPointer { names in
                nameStarts.withUnsafeBufferPointer { starts in
                    firstNames.withUnsafeBufferPointer { firsts in
                        firstPairs.withUnsafeBufferPointer { pairs in
                            Self.scan(
                                raw.bindMemory(to: UInt8.self),
                                Tables(names: names, starts: starts, firsts: firsts, pairs: pairs))
                        }
                    }
                }
            }
        }
    }

    /// The probe's tables, as the scan reads them.
    private struct Tables {
        let names: UnsafeBufferPointer<UInt8>
        let starts: UnsafeBufferPointer<Int>
        let firsts: UnsafeBufferPointer<Int>
        let pairs: UnsafeBufferPointer<UInt64>
    }

    private static func scan(_ bytes: UnsafeBufferPointer<UInt8>, _ tables: Tables) -> Bool {
        guard let base = bytes.baseAddress else { return false }
        // Jumps from quote to quote with `memchr` (vectorised), after one pass for `\u`.
        if hasUnicodeEscape(bytes) { return true }
        var index = 0
        while index < bytes.count {
            guard let quote = memchr(base + index, 0x22, bytes.count - index) else { return false }
            index = UnsafeRawPointer(base).distance(to: quote) + 1
            var start = index
            while start < bytes.count, isSeparator(bytes[start]) { start += 1 }
            guard start < bytes.count else { return false }
            var next = start + 1
            while next < bytes.count, isSeparator(bytes[next]) { next += 1 }
            // A text ending here cannot be a key: a key needs its closing quote.
            guard next < bytes.count else { return false }
            let first = Int(lowered(bytes[start]))
            let pair = first << 8 | Int(lowered(bytes[next]))
            guard tables.pairs[pair >> 6] & (1 << UInt64(pair & 63)) != 0 else { continue }
            for name in tables.firsts[first]..<tables.firsts[first + 1]
            where matches(
                tables.names, from: tables.starts[name], to: tables.starts[name + 1], in: bytes, at: start)
            {
                return true
            }
        }
        return false
    }

    /// Whether `bytes` holds a `\u` escape, behind which a key could hide.
    private static func hasUnicodeEscape(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let base = bytes.baseAddress else { return false }
        var index = 0
        while index < bytes.count {
            guard let backslash = memchr(base + index, 0x5C, bytes.count - index) else { return false }
            index = UnsafeRawPointer(base).distance(to: backslash) + 1
            guard index < bytes.count else { return false }
            // `\\` is an escaped backslash: what follows it is not an escape.
            if bytes[index] == 0x75 { return true }
            index += 1
        }
        return false
    }

    /// Whether the name at `names[from..<to]` is the key starting at `bytes[start]`.
    private static func matches(
        _ names: UnsafeBufferPointer<UInt8>, from: Int, to end: Int, in bytes: UnsafeBufferPointer<UInt8>,
        at start: Int
    ) -> Bool {
        var position = start
        var matched = from
        while matched < end {
            guard position < bytes.count else { return false }
            let byte = bytes[position]
            position += 1
            if isSeparator(byte) { continue }
            guard lowered(byte) == names[matched] else { return false }
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
