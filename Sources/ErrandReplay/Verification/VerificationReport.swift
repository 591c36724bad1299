import Errand
import Foundation

/// What ``CassetteVerifier`` found: how the live answers differ from a cassette's recordings.
///
/// A value to assert on in a test, and a readable text (``description``) for a log or CI:
///
/// ```text
/// Verified 3 of 4 entries: 2 differences (1 breaking), 1 skipped.
/// entry 1: GET https://staging.example.com/users
///   + added key users[0].address.postcode
///   ✗ missing key users[0].address.zip
/// withheld entry 1: GET https://staging.example.com/users: recorded header Authorization not sent …
/// skipped entry 3: POST https://api.example.com/users: not sent: the method is not safe …
/// ```
///
/// `✗` marks a change that is breaking by ``Category/breakingByDefault``, `+` one that is not;
/// ``text(breakingFor:)`` marks them by other categories.
public struct VerificationReport: Sendable, Hashable, CustomStringConvertible {
    /// Every difference, in entry order, then in the order found (status, headers, body).
    public var differences: [Difference]
    /// The entries that were not sent, with the reason.
    public var skipped: [Skipped]
    /// The indices of the entries that were sent and compared.
    public var verified: [Int]
    /// The entries sent to another origin than the one they were recorded from, with the
    /// recorded credentials left out of them.
    public var withheld: [Withheld]

    /// Creates a report.
    ///
    /// - Parameters:
    ///   - differences: The differences found.
    ///   - skipped: The entries not sent.
    ///   - verified: The entries sent and compared.
    ///   - withheld: The credentials left out of requests to another origin.
    public init(
        differences: [Difference] = [], skipped: [Skipped] = [], verified: [Int] = [],
        withheld: [Withheld] = []
    ) {
        self.differences = differences
        self.skipped = skipped
        self.verified = verified
        self.withheld = withheld
    }

    /// Whether any difference is in one of `categories`.
    ///
    /// ```swift
    /// #expect(!report.isBreaking(for: [.missing, .type]))  // no key missing, no type changed
    /// ```
    ///
    /// - Parameter categories: What counts as breaking; by default everything but an added key.
    /// - Returns: `true` when a difference of one of those categories was found.
    public func isBreaking(for categories: Set<Category> = Category.breakingByDefault) -> Bool {
        differences.contains { categories.contains($0.category) }
    }

    /// The differences of one category.
    ///
    /// - Parameter category: The category.
    /// - Returns: The differences in it, in report order.
    public func differences(_ category: Category) -> [Difference] {
        differences.filter { $0.category == category }
    }

    /// The differences of one entry.
    ///
    /// - Parameter entry: The entry's index in the cassette.
    /// - Returns: Its differences, in report order.
    public func differences(inEntry entry: Int) -> [Difference] {
        differences.filter { $0.entry == entry }
    }

    /// The report as text, with breaking changes as ``Category/breakingByDefault`` counts them.
    public var description: String {
        text(breakingFor: Category.breakingByDefault)
    }

    /// The report as text: a summary line, then each entry with differences and its changes,
    /// then the credentials withheld and the skipped entries. The summary's breaking count and
    /// each change's mark (`✗` breaking, `+` not) follow `categories`, so the text agrees with
    /// ``isBreaking(for:)``. What came from a cassette or a server is escaped, one line each.
    ///
    /// - Parameter categories: What counts as breaking, as given to ``isBreaking(for:)``.
    /// - Returns: The readable report.
    public func text(breakingFor categories: Set<Category>) -> String {
        let breaking = differences.filter { categories.contains($0.category) }.count
        let total = verified.count + skipped.count
        var lines = [
            "Verified \(verified.count) of \(total) entries: "
                + (differences.isEmpty
                    ? "no differences"
                    : "\(Self.count(differences.count, "difference")) (\(breaking) breaking)")
                + (skipped.isEmpty ? "" : ", \(skipped.count) skipped") + "."
        ]
        var current: Int?
        for difference in differences {
            if difference.entry != current {
                current = difference.entry
                lines.append(
                    "entry \(difference.entry): \(EscapedText.line(difference.method)) "
                        + EscapedText.line(difference.url))
            }
            let mark = categories.contains(difference.category) ? "✗" : "+"
            lines.append("  \(mark) \(difference.kind)")
        }
        lines += withheld.map { "withheld \($0)" }
        lines += skipped.map { "skipped \($0)" }
        return lines.joined(separator: "\n")
    }

    private static func count(_ number: Int, _ noun: String) -> String {
        "\(number) \(noun)\(number == 1 ? "" : "s")"
    }
}
