/// Punycode (RFC 3492), the ASCII form IDNA gives a Unicode label after its `xn--` prefix.
///
/// Written out rather than taken from the platform: Foundation's IDNA differs between Apple's
/// systems and Linux, and pins must be spelled the same everywhere. Both directions return
/// `nil` rather than wrap when a count would overflow (RFC 3492 §6.4).
enum Punycode {
    private static let base = 36
    private static let tMin = 1
    private static let tMax = 26
    private static let skew = 38
    private static let damp = 700
    private static let initialBias = 72
    private static let initialN = 0x80

    /// `scalars` in Punycode, without the `xn--` prefix: the basic (ASCII) code points as they
    /// are, a `-` when there were any, then the others as base-36 digits (lower case).
    static func encode(_ scalars: [Unicode.Scalar]) -> String? {
        let codes = scalars.map { Int($0.value) }
        var output = codes.filter { $0 < initialN }.map { UInt8($0) }
        let basicCount = output.count
        if basicCount > 0 { output.append(UInt8(ascii: "-")) }
        var n = initialN
        var delta = 0
        var bias = initialBias
        var handled = basicCount
        while handled < codes.count {
            guard let next = codes.filter({ $0 >= n }).min(),
                let step = multiply(next - n, handled + 1), let grown = add(delta, step)
            else { return nil }
            delta = grown
            n = next
            for code in codes {
                if code < n {
                    guard let counted = add(delta, 1) else { return nil }
                    delta = counted
                }
                guard code == n else { continue }
                var rest = delta
                var k = base
                while true {
                    let t = threshold(k, bias: bias)
                    if rest < t { break }
                    output.append(digit(t + (rest - t) % (base - t)))
                    rest = (rest - t) / (base - t)
                    k += base
                }
                output.append(digit(rest))
                bias = adapt(delta, points: handled + 1, first: handled == basicCount)
                delta = 0
                handled += 1
            }
            delta += 1
            n += 1
        }
        return String(decoding: output, as: UTF8.self)
    }

    /// The code points `text` (Punycode without its `xn--` prefix) stands for, or `nil` when it
    /// is not valid Punycode. Digits are read in either case.
    static func decode(_ text: some StringProtocol) -> [Unicode.Scalar]? {
        let bytes = Array(text.utf8)
        guard bytes.allSatisfy({ $0 < 0x80 }) else { return nil }
        var output: [Int] = []
        var index = 0
        if let delimiter = bytes.lastIndex(of: UInt8(ascii: "-")), delimiter > 0 {
            output = bytes[..<delimiter].map { Int($0) }
            index = delimiter + 1
        }
        var n = initialN
        var i = 0
        var bias = initialBias
        while index < bytes.count {
            let old = i
            var weight = 1
            var k = base
            while true {
                guard index < bytes.count, let value = value(of: bytes[index]) else { return nil }
                index += 1
                guard let part = multiply(value, weight), let sum = add(i, part) else { return nil }
                i = sum
                let t = threshold(k, bias: bias)
                if value < t { break }
                guard let grown = multiply(weight, base - t) else { return nil }
                weight = grown
                k += base
            }
            let points = output.count + 1
            bias = adapt(i - old, points: points, first: old == 0)
            guard let code = add(n, i / points) else { return nil }
            n = code
            i %= points
            // A basic code point may not be encoded as an extended one.
            guard n >= initialN, n <= 0x10_FFFF, Unicode.Scalar(UInt32(n)) != nil else { return nil }
            output.insert(n, at: i)
            i += 1
        }
        return output.compactMap { Unicode.Scalar(UInt32(clamping: $0)) }
    }

    private static func threshold(_ k: Int, bias: Int) -> Int {
        k <= bias ? tMin : k >= bias + tMax ? tMax : k - bias
    }

    /// The bias adaptation of RFC 3492 §6.1.
    private static func adapt(_ delta: Int, points: Int, first: Bool) -> Int {
        var delta = first ? delta / damp : delta / 2
        delta += delta / points
        var k = 0
        while delta > ((base - tMin) * tMax) / 2 {
            delta /= base - tMin
            k += base
        }
        return k + (base - tMin + 1) * delta / (delta + skew)
    }

    /// `a`–`z` for 0–25, `0`–`9` for 26–35.
    private static func digit(_ value: Int) -> UInt8 {
        value < 26 ? UInt8(ascii: "a") + UInt8(value) : UInt8(ascii: "0") + UInt8(value - 26)
    }

    private static func value(of byte: UInt8) -> Int? {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"): Int(byte - UInt8(ascii: "a"))
        case UInt8(ascii: "A")...UInt8(ascii: "Z"): Int(byte - UInt8(ascii: "A"))
        case UInt8(ascii: "0")...UInt8(ascii: "9"): Int(byte - UInt8(ascii: "0")) + 26
        default: nil
        }
    }

    private static func add(_ a: Int, _ b: Int) -> Int? {
        let (sum, overflow) = a.addingReportingOverflow(b)
        return overflow ? nil : sum
    }

    private static func multiply(_ a: Int, _ b: Int) -> Int? {
        let (product, overflow) = a.multipliedReportingOverflow(by: b)
        return overflow ? nil : product
    }
}
