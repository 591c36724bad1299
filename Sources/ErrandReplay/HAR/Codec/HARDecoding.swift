import Foundation

/// A model type that decodes itself leniently from HAR JSON.
///
/// Internal on purpose: the public model is not `Codable`, so the only way in is the lenient
/// reader and the only way out is the strict, deterministic writer.
protocol HARDecodable {
    /// Decodes the value from a decoder positioned on its JSON object.
    init(harFrom decoder: any Decoder) throws
}

/// Adapts a ``HARDecodable`` type to `Decodable` for `JSONDecoder`.
struct HARDecoded<Value: HARDecodable>: Decodable {
    /// The decoded value.
    let value: Value

    init(from decoder: any Decoder) throws {
        self.value = try Value(harFrom: decoder)
    }
}

/// The leniency rules of the reader, in one place.
///
/// Objects and strings that matter (URLs, methods, header values, bodies) are decoded strictly:
/// a wrong type is an error naming the field. Informational strings (comments, IP addresses,
/// connection ids) accept numbers and ignore anything else. Numbers accept integers written
/// with a fraction of zero. A missing or `null` optional field takes its default.
extension KeyedDecodingContainer {
    /// A required nested object.
    func harValue<Value: HARDecodable>(_ type: Value.Type, forKey key: Key) throws -> Value {
        try decode(HARDecoded<Value>.self, forKey: key).value
    }

    /// An optional nested object; `nil` when missing or `null`.
    func harValueIfPresent<Value: HARDecodable>(_ type: Value.Type, forKey key: Key) throws -> Value? {
        try decodeIfPresent(HARDecoded<Value>.self, forKey: key)?.value
    }

    /// A required array of objects.
    func harArray<Value: HARDecodable>(_ type: Value.Type, forKey key: Key) throws -> [Value] {
        try decode([HARDecoded<Value>].self, forKey: key).map(\.value)
    }

    /// An optional array of objects; empty when missing or `null`.
    func harArrayIfPresent<Value: HARDecodable>(_ type: Value.Type, forKey key: Key) throws -> [Value] {
        try decodeIfPresent([HARDecoded<Value>].self, forKey: key)?.map(\.value) ?? []
    }

    /// An informational string: a string, or a number or boolean written as text; else `nil`.
    func harLenientString(forKey key: Key) -> String? {
        if let text = try? decodeIfPresent(String.self, forKey: key) {
            return text
        }
        if let number = try? decodeIfPresent(Int.self, forKey: key) {
            return String(number)
        }
        if let number = try? decodeIfPresent(Double.self, forKey: key) {
            return String(number)
        }
        if let flag = try? decodeIfPresent(Bool.self, forKey: key) {
            return String(flag)
        }
        return nil
    }

    /// An informational boolean; `nil` when missing, `null` or not a boolean.
    func harLenientBool(forKey key: Key) -> Bool? {
        (try? decodeIfPresent(Bool.self, forKey: key)) ?? nil
    }

    /// A whole number; `nil` when missing or `null`. `12.0` is accepted, `12.5` is an error.
    func harInteger(forKey key: Key) throws -> Int? {
        guard contains(key), try !decodeNil(forKey: key) else { return nil }
        if let integer = try? decode(Int.self, forKey: key) {
            return integer
        }
        let number: Double
        do {
            number = try decode(Double.self, forKey: key)
        } catch {
            guard let outOfRange = HARNumbers.outOfRange(error) else { throw error }
            number = outOfRange
        }
        guard number.isFinite, number.rounded() == number, let integer = Int(exactly: number) else {
            throw HARError(
                code: .invalidValue,
                codingPath: codingPath + [key],
                reason: "expected a whole number, found \(number)"
            )
        }
        return integer
    }

    /// An ISO 8601 date-time, in any of the forms exporters write.
    ///
    /// A date is informational for replay, so a missing one, `null` or an object (Chrome's
    /// `getHAR` extension API once gave a `Date` object that serialized as `null`) reads as
    /// 1970-01-01, and a number as JavaScript's milliseconds since 1970. A string that is not a
    /// date is an error: it is more likely a damaged file than an exporter's habit.
    func harDate(forKey key: Key) throws -> Date {
        let text: String?
        do {
            text = try decodeIfPresent(String.self, forKey: key)
        } catch DecodingError.typeMismatch {
            text = nil
        }
        guard let text else {
            guard let milliseconds = harLenientNumber(forKey: key) else {
                return Date(timeIntervalSince1970: 0)
            }
            let date = Date(timeIntervalSince1970: HARNumbers.finite(milliseconds) / 1_000)
            return HARTimestamp.format(date) == nil ? Date(timeIntervalSince1970: 0) : date
        }
        guard let date = HARTimestamp.parse(text) else {
            throw HARError(
                code: .invalidValue,
                codingPath: codingPath + [key],
                reason: "\"\(text.prefix(80))\" is not an ISO 8601 date-time such as 2024-01-31T12:00:00.000Z"
            )
        }
        return date
    }

    /// A body from its `text` and optional `encoding` fields; `nil` when there is no `text`.
    func harBody(textKey: Key, encodingKey: Key, mimeType: String) throws -> Data? {
        guard let text = try decodeIfPresent(String.self, forKey: textKey) else { return nil }
        let encoding = harLenientString(forKey: encodingKey)
        switch HARBodyText.decode(text: text, encoding: encoding, mimeType: mimeType) {
        case .success(let body):
            return body
        case .failure(.invalidBase64):
            throw HARError(
                code: .invalidValue,
                codingPath: codingPath + [textKey],
                reason: "the text is marked \"encoding\": \"base64\" but is not valid base64"
            )
        case .failure(.unsupportedEncoding(let name)):
            throw HARError(
                code: .invalidValue,
                codingPath: codingPath + [encodingKey],
                reason: "unsupported body encoding \"\(name.prefix(40))\"; only \"base64\" is defined"
            )
        }
    }
}
