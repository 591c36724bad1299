/// How far an upload or a download has come.
///
/// ``fraction`` is `nil` while the total is unknown (a chunked or compressed download), never 0.
public struct TransferProgress: Hashable, Sendable {
    /// Which way the bytes go.
    public enum Direction: String, Hashable, Sendable {
        /// The request body, going to the server.
        case upload
        /// The response body, coming from the server.
        case download
    }

    /// Which way the bytes go.
    public var direction: Direction
    /// The bytes moved so far.
    public var completedBytes: Int64
    /// The bytes expected in all, when known.
    public var totalBytes: Int64?

    /// Creates a progress value.
    ///
    /// - Parameters:
    ///   - direction: Which way the bytes go.
    ///   - completedBytes: The bytes moved so far.
    ///   - totalBytes: The bytes expected in all; `nil` when unknown.
    public init(direction: Direction, completedBytes: Int64, totalBytes: Int64?) {
        self.direction = direction
        self.completedBytes = completedBytes
        self.totalBytes = totalBytes
    }

    /// The share done, from 0 to 1, or `nil` when the total is unknown.
    ///
    /// An empty transfer of known length is done: 1.
    public var fraction: Double? {
        guard let totalBytes else { return nil }
        guard totalBytes > 0 else { return 1 }
        return min(1, Double(completedBytes) / Double(totalBytes))
    }

    /// Whether all the expected bytes moved; `false` while the total is unknown.
    public var isComplete: Bool {
        guard let totalBytes else { return false }
        return completedBytes >= totalBytes
    }
}
