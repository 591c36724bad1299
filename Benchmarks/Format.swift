import Foundation

/// Number formatting for the report, independent of the machine's locale.
enum Format {
    /// `12,345` for whole numbers.
    static func grouped(_ value: Int) -> String {
        let digits = String(value.magnitude)
        var result = ""
        for (index, character) in digits.enumerated() {
            if index > 0, (digits.count - index).isMultiple(of: 3) { result.append(",") }
            result.append(character)
        }
        return value < 0 ? "-" + result : result
    }

    /// `value` with `digits` decimals, and thousands grouped.
    static func number(_ value: Double, digits: Int) -> String {
        guard value.isFinite else { return "n/a" }
        let scale = pow(10, Double(digits))
        let rounded = (value * scale).rounded() / scale
        let whole = Int(rounded.magnitude.rounded(.towardZero))
        var text = grouped(whole)
        if digits > 0 {
            let fraction = Int(((rounded.magnitude - Double(whole)) * scale).rounded())
            let padded = String(fraction)
            text += "." + String(repeating: "0", count: max(0, digits - padded.count)) + padded
        }
        return rounded < 0 ? "-" + text : text
    }

    /// A figure in the precision its metric deserves: whole req/s, µs to 2 or 3 significant
    /// places, ns to one decimal below 100, MiB to one decimal.
    static func figure(_ value: Double, _ metric: Metric) -> String {
        switch metric {
        case .throughput: number(value, digits: 0)
        case .time: number(value, digits: value < 10 ? 2 : (value < 100 ? 1 : 0))
        case .nanoseconds: number(value, digits: value < 100 ? 1 : 0)
        case .memory: number(value, digits: 1)
        }
    }

    /// `0.98×`.
    static func ratio(_ value: Double) -> String {
        number(value, digits: 2) + "×"
    }

    /// `1,612 (1,580–1,640)`.
    static func stats(_ stats: Stats, _ metric: Metric) -> String {
        "\(figure(stats.median, metric)) (\(figure(stats.min, metric))–\(figure(stats.max, metric)))"
    }

    /// As ``stats(_:_:)`` in the metric's precision, or for a ratio (`nil`) `1.05× (1.01–1.10×)`.
    static func stats(_ stats: Stats, _ metric: Metric?) -> String {
        guard let metric else {
            return "\(ratio(stats.median)) (\(number(stats.min, digits: 2))–\(ratio(stats.max)))"
        }
        return self.stats(stats, metric)
    }
}
