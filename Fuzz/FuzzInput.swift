import Foundation

/// The fuzzer's bytes, read as the pieces a target needs.
struct FuzzInput {
    /// The whole input.
    let data: Data

    init(_ data: Data) {
        self.data = data
    }

    /// The input as text (invalid UTF-8 repaired).
    var text: String { String(decoding: data, as: UTF8.self) }

    /// The input cut at NUL bytes, each piece as text; at least one piece.
    var fields: [String] {
        data.split(separator: 0, omittingEmptySubsequences: false).map { String(decoding: $0, as: UTF8.self) }
    }

    /// The input cut at NUL bytes, as raw bytes.
    var chunks: [Data] {
        data.split(separator: 0, omittingEmptySubsequences: false).map { Data($0) }
    }
}
