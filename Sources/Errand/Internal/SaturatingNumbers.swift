/// Conversions of configured and received numbers that saturate instead of stopping the program.
///
/// Swift stops the process when a `Double` that is NaN, infinite or out of range becomes an
/// integer or a `Duration` (`Int(Double.infinity)` and `Duration.seconds(1e300)` both trap), and
/// a clock does when asked to sleep past what its deadline holds (seconds since its origin must
/// fit an `Int64`). A window, a backoff multiplier, a `Retry-After` header or an injected clock
/// can hold any of these, so every such number becomes an integer or a duration here.
extension Duration {
    /// The longest duration the library computes or waits for: 10^15 seconds (some 32 million
    /// years), which any clock can add to its present.
    package static let longest = Duration.seconds(1_000_000_000_000_000)

    /// `seconds` as a duration: NaN is zero, and anything beyond ±``longest`` (±infinity too)
    /// is ±``longest``.
    package static func saturating(seconds: Double) -> Duration {
        guard !seconds.isNaN else { return .zero }
        let bound = 1e15
        if seconds >= bound { return longest }
        if seconds <= -bound { return .zero - longest }
        return .seconds(seconds)
    }

    /// This duration within ±``longest``, so that a clock can wait for it.
    package var clampedToLongest: Duration {
        min(max(self, .zero - Self.longest), Self.longest)
    }

    /// The duration in seconds, as a `Double`.
    package var seconds: Double {
        Double(components.seconds) + Double(components.attoseconds) * 1e-18
    }
}

extension Int {
    /// `value` rounded toward zero and kept within `bounds`; NaN is the bound nearest zero.
    ///
    /// - Parameters:
    ///   - value: A number that may be NaN, infinite or out of range.
    ///   - bounds: The integers allowed.
    /// - Returns: An integer in `bounds`, never a trap.
    package static func saturating(_ value: Double, within bounds: ClosedRange<Int>) -> Int {
        let whole: Int
        if value.isNaN {
            whole = 0
        } else if value >= Double(Int.max) {
            // 2^63, one past Int.max: every Double below it converts.
            whole = .max
        } else if value <= Double(Int.min) {
            whole = .min
        } else {
            whole = Int(value)
        }
        return Swift.min(Swift.max(whole, bounds.lowerBound), bounds.upperBound)
    }

    /// `self + other`, held at `Int.max` or `Int.min` instead of overflowing: totals of sizes
    /// that a server, a file or a caller's measurement reports.
    ///
    /// - Parameter other: The number to add.
    /// - Returns: The sum, saturated.
    package func addingSaturated(_ other: Int) -> Int {
        let (sum, overflow) = addingReportingOverflow(other)
        guard overflow else { return sum }
        return other > 0 ? .max : .min
    }
}
