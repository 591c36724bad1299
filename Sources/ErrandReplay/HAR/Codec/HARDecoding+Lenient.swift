import Foundation

/// The reader's rules for informational fields: what real exporters write wrong there is read
/// as best it can be, or dropped, and never fails the file.
///
/// Sizes, times, timings, cookies, pages and the parsed `queryString` describe an exchange
/// but do not decide how it replays. Exporters get them wrong in known ways: Internet
/// Explorer 11 writes `cookies` as one object, some tools write times and sizes as strings,
/// hand-edited files hold `12.5` where a whole number belongs. Such a value is converted when
/// its meaning is clear and left out otherwise.
extension KeyedDecodingContainer {
    /// An informational number: a number, or a string that holds one; `nil` for anything else.
    ///
    /// A number beyond `Double`'s range (`1e400`) is infinite here, as `Double("1e400")` is;
    /// callers clamp with ``HARNumbers/finite(_:)``.
    func harLenientNumber(forKey key: Key) -> Double? {
        do {
            if let number = try decodeIfPresent(Double.self, forKey: key) {
                return number
            }
        } catch {
            if let number = HARNumbers.outOfRange(error) { return number }
        }
        if let text = try? decodeIfPresent(String.self, forKey: key) {
            return Double(text.trimmingCharacters(in: .whitespaces)).flatMap { $0.isNaN ? nil : $0 }
        }
        return nil
    }

    /// An informational whole number: an integer, a number with a zero fraction, or a string
    /// holding one, within `Int`'s range; `nil` for anything else.
    func harLenientInteger(forKey key: Key) -> Int? {
        if let integer = try? decodeIfPresent(Int.self, forKey: key) {
            return integer
        }
        guard let number = harLenientNumber(forKey: key), number.rounded() == number else { return nil }
        return Int(exactly: number)
    }

    /// A duration in milliseconds; `nil` when missing, negative (HAR's `-1`) or not a number.
    func harMilliseconds(forKey key: Key) -> Double? {
        guard let number = harLenientNumber(forKey: key), number >= 0 else { return nil }
        return HARNumbers.finite(number)
    }

    /// An informational array of objects: the elements that read, in order. One object where
    /// an array belongs (Internet Explorer 11's `cookies`) is an array of that one; anything
    /// else, or nothing, is empty.
    func harLenientArray<Value: HARDecodable>(_ type: Value.Type, forKey key: Key) -> [Value] {
        if let elements = try? decodeIfPresent([HARLenientElement<Value>].self, forKey: key) {
            return elements.compactMap(\.value)
        }
        if let single = try? decodeIfPresent(HARDecoded<Value>.self, forKey: key) {
            return [single.value]
        }
        return []
    }
}

/// An element of an informational array, or `nil` when it does not read.
struct HARLenientElement<Value: HARDecodable>: Decodable {
    /// The element, when it reads.
    let value: Value?

    init(from decoder: any Decoder) throws {
        value = try? Value(harFrom: decoder)
    }
}

/// Numbers made safe to compute with and to write back.
enum HARNumbers {
    /// The number, or the largest finite one of its sign when it is infinite; `0` for NaN.
    ///
    /// The writer cannot write an infinite number, so an entry whose time was summed to
    /// infinity from its timings would make the whole cassette unwritable.
    static func finite(_ number: Double) -> Double {
        if number.isNaN { return 0 }
        if number.isInfinite { return number > 0 ? .greatestFiniteMagnitude : -.greatestFiniteMagnitude }
        return number
    }

    /// The value of a JSON number that `JSONDecoder` refused as beyond `Double`'s range: an
    /// infinity of its sign, or zero; `nil` for any other error.
    ///
    /// Foundation's decoder reports `1e400` with an error of its own whose text holds the
    /// number (`numberIsNotRepresentableInSwift(parsed: "1e400")`) and no coding path.
    static func outOfRange(_ error: any Error) -> Double? {
        guard !(error is DecodingError) else { return nil }
        let text = String(describing: error)
        guard let start = text.range(of: "parsed: \""),
            let end = text.range(of: "\"", range: start.upperBound..<text.endIndex)
        else { return nil }
        return Double(text[start.upperBound..<end.lowerBound])
    }
}
