import ErrandSync

/// A lock for async code: one holder at a time, the others wait their turn in order.
///
/// An actor is not enough where the work inside suspends: its next call starts at the first
/// `await`. The token ledger needs the whole of a compare-and-set (read, compare, write) of a
/// storage of the app's own to run before a sign-out's clear starts.
final class AsyncGate: Sendable {
    private struct State {
        var held = false
        var waiting: [CheckedContinuation<Void, Never>] = []
    }

    private let state = Locked(State())

    /// Waits until the gate is free and takes it.
    func enter() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let free = state.withLock { state in
                guard state.held else {
                    state.held = true
                    return true
                }
                state.waiting.append(continuation)
                return false
            }
            if free { continuation.resume() }
        }
    }

    /// Hands the gate to the next in line, or frees it.
    func leave() {
        let next = state.withLock { state -> CheckedContinuation<Void, Never>? in
            guard !state.waiting.isEmpty else {
                state.held = false
                return nil
            }
            return state.waiting.removeFirst()
        }
        next?.resume()
    }
}
