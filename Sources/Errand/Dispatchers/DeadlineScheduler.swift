import Dispatch
import ErrandSync

/// One timer for all the deadlines of a dispatcher's requests.
///
/// A timer per request costs a timer source and a wake-up of Dispatch's manager thread each, and
/// a cancelled `asyncAfter` item stays queued until its time. Here deadlines wait in a min-heap
/// and a single timer is armed for the earliest; a finished request just leaves the table, and
/// its heap entry is dropped when it comes up (or when stale entries pile up).
final class DeadlineScheduler: Sendable {
    private struct Entry {
        let deadline: UInt64
        let id: UInt64
    }

    private struct State {
        var heap: [Entry] = []
        var pending: [UInt64: @Sendable () -> Void] = [:]
        var nextID: UInt64 = 0
        var armedFor: UInt64 = .max
    }

    private let state = Locked(State())
    private let queue = DispatchQueue(label: "errand.deadlines")
    private let timer: TimerBox

    init() {
        timer = TimerBox(DispatchSource.makeTimerSource(queue: queue))
        timer.source.setEventHandler { [weak self] in self?.fire() }
        timer.source.activate()
    }

    deinit {
        timer.source.cancel()
    }

    /// Runs `expire` after `seconds`, unless the returned token is cancelled first.
    ///
    /// `.infinity`, and a time too far off for the clock's nanoseconds, never expire; NaN and
    /// negative values expire at once.
    func schedule(after seconds: Double, _ expire: @escaping @Sendable () -> Void) -> UInt64 {
        let now = DispatchTime.now().uptimeNanoseconds
        let nanoseconds = seconds > 0 ? seconds * 1e9 : 0
        // Double(UInt64) rounds up near the top, so compare with room to spare.
        let neverExpires = !(nanoseconds < Double(UInt64.max - now) * 0.5)
        let deadline = neverExpires ? UInt64.max : now + UInt64(nanoseconds)
        return state.withLock { state in
            let id = state.nextID
            state.nextID += 1
            guard !neverExpires else { return id }
            state.pending[id] = expire
            Self.push(Entry(deadline: deadline, id: id), into: &state.heap)
            if state.heap.count > 1_024, state.heap.count > 4 * state.pending.count {
                state.heap = state.heap.filter { state.pending[$0.id] != nil }
                Self.heapify(&state.heap)
            }
            // Armed under the lock, so a concurrent fire() cannot re-arm for a later deadline after us.
            if deadline < state.armedFor {
                state.armedFor = deadline
                arm(at: deadline)
            }
            return id
        }
    }

    /// Forgets a deadline whose request finished.
    func cancel(_ id: UInt64) {
        _ = state.withLock { $0.pending.removeValue(forKey: id) }
    }

    private func arm(at deadline: UInt64) {
        timer.source.schedule(deadline: DispatchTime(uptimeNanoseconds: deadline), leeway: .milliseconds(5))
    }

    private func fire() {
        let now = DispatchTime.now().uptimeNanoseconds
        let due = state.withLock { state in
            var due: [@Sendable () -> Void] = []
            while let first = state.heap.first, first.deadline <= now {
                Self.popFirst(&state.heap)
                if let expire = state.pending.removeValue(forKey: first.id) { due.append(expire) }
            }
            state.armedFor = state.heap.first?.deadline ?? .max
            if let next = state.heap.first?.deadline { arm(at: next) }
            return due
        }
        for expire in due { expire() }
    }

    private static func push(_ entry: Entry, into heap: inout [Entry]) {
        heap.append(entry)
        var child = heap.count - 1
        while child > 0 {
            let parent = (child - 1) / 2
            guard heap[child].deadline < heap[parent].deadline else { break }
            heap.swapAt(child, parent)
            child = parent
        }
    }

    private static func popFirst(_ heap: inout [Entry]) {
        heap.swapAt(0, heap.count - 1)
        heap.removeLast()
        siftDown(&heap, from: 0)
    }

    private static func heapify(_ heap: inout [Entry]) {
        for index in stride(from: heap.count / 2 - 1, through: 0, by: -1) { siftDown(&heap, from: index) }
    }

    private static func siftDown(_ heap: inout [Entry], from start: Int) {
        var parent = start
        while true {
            let left = 2 * parent + 1
            let right = left + 1
            var smallest = parent
            if left < heap.count, heap[left].deadline < heap[smallest].deadline { smallest = left }
            if right < heap.count, heap[right].deadline < heap[smallest].deadline { smallest = right }
            guard smallest != parent else { return }
            heap.swapAt(parent, smallest)
            parent = smallest
        }
    }
}

/// The timer source, shared across threads.
///
/// `@unchecked Sendable`: Dispatch sources are thread-safe (schedule and cancel may be called
/// from any thread), but Dispatch on Linux does not declare them `Sendable`.
private struct TimerBox: @unchecked Sendable {
    let source: any DispatchSourceTimer

    init(_ source: any DispatchSourceTimer) {
        self.source = source
    }
}
