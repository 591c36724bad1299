import Foundation

/// How long a replayed answer waits: the recorded time, bounded by the request's deadline.
///
/// A cassette's times are untrusted numbers (`1e16`, `1.797e308`, `-1`), and so are a timing
/// factor and a timeout: every conversion to a `Duration` is clamped here, because
/// `Duration`'s integer initializers stop the process on a value out of range.
struct ReplayWait {
    /// The longest wait, about 31,700 years: far past any deadline, well inside `Int64` microseconds.
    static let longestMilliseconds = 1e15

    /// The timing in effect.
    let timing: ReplayDispatcher.Timing
    /// The deadline in seconds.
    let timeout: TimeInterval
    /// The recorded time of the chain times the factor, in milliseconds, finite and not negative.
    let recordedMilliseconds: Double
    /// How long to wait before answering, or `nil` to answer at once.
    let delay: Duration?
    /// Whether the wait ends at the deadline rather than with the answer.
    let expires: Bool

    init(entries: [HAR.Entry], timing: ReplayDispatcher.Timing, timeout: TimeInterval) {
        self.timing = timing
        self.timeout = timeout
        var milliseconds = 0.0
        if case .recorded(let factor) = timing {
            let total = entries.reduce(0.0) { $0 + Self.clamped($1.time) }
            milliseconds = Self.clamped(total * Self.clamped(factor))
        }
        recordedMilliseconds = milliseconds
        // A NaN timeout is no deadline, like `.infinity`; zero or less is a deadline already past.
        let deadline =
            timeout.isNaN ? Self.longestMilliseconds : min(max(0, timeout * 1_000), Self.longestMilliseconds)
        guard milliseconds > 0 else {
            (delay, expires) = (nil, false)
            return
        }
        expires = deadline <= milliseconds && deadline < Self.longestMilliseconds
        delay = Self.duration(milliseconds: expires ? deadline : milliseconds)
    }

    /// A number of milliseconds made finite and not negative: NaN and negatives are `0`,
    /// anything past ``longestMilliseconds`` is that.
    static func clamped(_ milliseconds: Double) -> Double {
        guard milliseconds > 0 else { return 0 }
        return min(milliseconds, longestMilliseconds)
    }

    /// A duration of a clamped number of milliseconds, to the microsecond.
    static func duration(milliseconds: Double) -> Duration {
        let microseconds = (clamped(milliseconds) * 1_000).rounded()
        return .microseconds(Int64(exactly: microseconds) ?? 0)
    }
}
