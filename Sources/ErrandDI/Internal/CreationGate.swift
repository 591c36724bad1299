import ErrandSync

/// Serialises the creation of one cached value, and refuses to wait where waiting would deadlock.
///
/// Each cache (a singleton, a named-scope value, a weak value, a `Lazy`) has a gate of its own,
/// held while its factory runs, so concurrent first resolves run the factory once while other
/// bindings resolve undisturbed. Per-gate locks alone deadlock on a cycle resolved from two
/// threads at once: thread 1 holds `A`'s gate and needs `B`, thread 2 holds `B`'s and needs `A`.
/// So before a thread blocks on a gate it asks the `WaitGraph` who holds that gate, what that
/// thread waits for, and so on; if the chain comes back to the asking thread, waiting would never
/// end, and the thread gets ``DIError/Code/dependencyCycle`` with the path instead. It unwinds,
/// releases its gates, and the other thread then meets the same cycle on its own stack.
final class CreationGate: Sendable {
    /// Held while a value is created; guards only the count of creations run under it.
    ///
    /// The count gives the lock a stored value of non-zero size: with `Locked(())` the thread
    /// sanitizer reported races on the zero-sized value although every access held the lock.
    private let lock = Locked(0)

    /// Creates an open gate.
    init() {}

    /// Runs `body` while holding the gate, after checking that waiting for it cannot deadlock.
    ///
    /// - Parameters:
    ///   - binding: The binding whose value `body` creates, for the path of a cycle error.
    ///   - container: The container in which it is resolved, for the cycle error.
    ///   - body: Creates the value.
    /// - Returns: What `body` returns.
    /// - Throws: ``DIError/Code/dependencyCycle`` when the holder of the gate waits, directly or
    ///   through other threads, for a gate this thread holds; otherwise what `body` throws.
    func run<R>(
        creating binding: BindingInfo?,
        in container: DI,
        _ body: () throws(DIError) -> R
    ) throws(DIError) -> R {
        let stack = ResolutionStack.current
        let id = ObjectIdentifier(self)
        if let cycle = WaitGraph.shared.willWait(stack, for: id) {
            throw DIError.cycle(path: cycle, in: container)
        }
        // `Locked.withLock` rethrows untyped errors, so the typed result travels in a `Result`.
        let result = lock.withLock { runs -> Result<R, DIError> in
            runs &+= 1
            WaitGraph.shared.acquired(stack, id, binding: binding)
            defer { WaitGraph.shared.released(id) }
            return Result { () throws(DIError) -> R in try body() }
        }
        return try result.get()
    }
}

/// Who holds which creation gate and which gate each blocked thread waits for, process-wide.
///
/// Touched only when a value is created (never when a cached value is read), under one lock.
/// A thread is identified by its `ResolutionStack`, which lives as long as the thread.
final class WaitGraph: Sendable {
    /// The holder of a gate.
    private struct Holder {
        /// The holding thread's stack.
        let stack: ResolutionStack
        /// The stack's depth when the gate was taken: the frames above it are the holder's part of
        /// a path.
        let depth: Int
        /// The binding created under the gate.
        let binding: BindingInfo?
    }

    /// The graph.
    private struct State {
        /// The holder of each held gate, by gate.
        var holders: [ObjectIdentifier: Holder] = [:]
        /// The gate each thread is about to wait for, by thread.
        var waits: [ObjectIdentifier: ObjectIdentifier] = [:]
    }

    /// The process-wide graph.
    static let shared = WaitGraph()

    /// The graph, under its lock. A holder's stack is read by other threads only while its thread
    /// is registered in `waits`, that is between `willWait` and `acquired`, when the thread does
    /// not touch its stack; both calls take this lock, which orders the accesses.
    private let state = Locked(State())

    /// Registers that `stack`'s thread is about to wait for `gate`, unless that closes a cycle.
    ///
    /// - Parameters:
    ///   - stack: The waiting thread's stack.
    ///   - gate: The gate it wants.
    /// - Returns: `nil` when waiting is safe (the wait is registered), else the cycle's path,
    ///   closed with its first element, and nothing is registered.
    func willWait(_ stack: ResolutionStack, for gate: ObjectIdentifier) -> [BindingInfo]? {
        state.withLock { state in
            var others: [BindingInfo] = []
            var next = gate
            for _ in 0...state.holders.count {
                guard let holder = state.holders[next] else { break }
                if holder.stack === stack {
                    let own = Array(stack.frames[min(holder.depth, stack.frames.count)...])
                    let path = own + others
                    guard let first = path.first ?? holder.binding else { return [] }
                    return path + [first]
                }
                guard let waited = state.waits[ObjectIdentifier(holder.stack)] else { break }
                let frames = holder.stack.frames
                others += frames[min(holder.depth, frames.count)...]
                next = waited
            }
            state.waits[ObjectIdentifier(stack)] = gate
            return nil
        }
    }

    /// Records that `stack`'s thread now holds `gate` and waits no more.
    ///
    /// - Parameters:
    ///   - stack: The thread's stack.
    ///   - gate: The gate it took.
    ///   - binding: The binding it creates under the gate.
    func acquired(_ stack: ResolutionStack, _ gate: ObjectIdentifier, binding: BindingInfo?) {
        state.withLock { state in
            state.waits[ObjectIdentifier(stack)] = nil
            state.holders[gate] = Holder(stack: stack, depth: stack.frames.count, binding: binding)
        }
    }

    /// Records that `gate` is free again.
    ///
    /// - Parameter gate: The gate released.
    func released(_ gate: ObjectIdentifier) {
        state.withLock { state in
            state.holders[gate] = nil
        }
    }
}
