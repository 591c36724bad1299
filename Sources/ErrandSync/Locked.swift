import Foundation

/// A value behind a lock: the one lock wrapper of every Errand module, with `Mutex`'s `withLock`
/// shape.
///
/// `@unchecked Sendable`: every access to `value` goes through `withLock`, which holds `lock`.
/// Built on `NSLock` rather than `Synchronization.Mutex` because the thread sanitizer on Linux
/// does not see `Mutex` as synchronisation and reports races inside every `withLock`.
package final class Locked<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Value

    /// Creates the wrapper around `value`.
    package init(_ value: Value) {
        self.value = value
    }

    /// Runs `body` with exclusive access to the value.
    package func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }
}
