import Errand
import Foundation

/// The progress a replayed answer reports, with the recorded timing: the upload when the
/// recording's `send` phase ended, the download spread over its `receive` phase, both scaled as
/// the wait is scaled; all at once when replaying without timing.
///
/// The byte counts are those of the request being sent and of the body replayed, never the sizes
/// a cassette claims (`bodySize`, `content.size`, `Content-Length`), which may be anything.
struct ReplayProgress: Sendable {
    /// How many download events a recorded `receive` phase is spread over, at most.
    static let downloadSteps = 4

    /// When each event is due, from the start of the wait, in order; empty when the request
    /// reports no progress.
    let schedule: [(at: Duration, event: TransferProgress)]
    private let reporter: ProgressReporter?

    init(
        request: RequestData, answer: Result<NetworkResponse, NetworkError>, entries: [HAR.Entry],
        wait: ReplayWait
    ) {
        reporter = request.progress
        guard reporter != nil, let last = entries.last else {
            schedule = []
            return
        }
        // Positions in recorded milliseconds, from the start of the chain to the end of its last entry.
        let total = entries.reduce(0.0) { $0 + ReplayWait.clamped($1.time) }
        let lastTime = ReplayWait.clamped(last.time)
        let receive = min(ReplayWait.clamped(last.timings.receive), lastTime)
        let waiting = min(ReplayWait.clamped(last.timings.wait), lastTime - receive)
        let scale = total > 0 ? wait.recordedMilliseconds / total : 0
        func due(_ milliseconds: Double) -> Duration {
            ReplayWait.duration(milliseconds: milliseconds * scale)
        }
        var schedule: [(at: Duration, event: TransferProgress)] = []
        let sent = Int64(request.body?.data?.count ?? 0)
        if sent > 0 {
            let event = TransferProgress(direction: .upload, completedBytes: sent, totalBytes: sent)
            schedule.append((due(total - receive - waiting), event))
        }
        if case .success(let response) = answer {
            let bytes = Int64(response.body.count)
            // Answered at once, the body comes whole: one event.
            let spread = receive > 0 && wait.delay != nil
            let steps = spread ? Int(min(Int64(Self.downloadSteps), max(1, bytes))) : 1
            for step in 1...steps {
                let done = bytes * Int64(step) / Int64(steps)
                let at = due(total - receive + receive * Double(step) / Double(steps))
                schedule.append(
                    (at, TransferProgress(direction: .download, completedBytes: done, totalBytes: bytes)))
            }
        }
        self.schedule = schedule
    }

    /// Reports every event now, for an answer given at once.
    func reportAll() {
        guard let reporter else { return }
        for entry in schedule { reporter.report(entry.event) }
    }

    /// Sleeps `delay` on `clock`, reporting each event when its time comes; an event due after
    /// `delay` (the request's deadline cut the wait short) is never reported.
    ///
    /// Each wait is until a point measured from the start, so the events do not drift later by
    /// the time each report takes, and a clock moved past several of them reports them all.
    ///
    /// - Throws: What the clock throws when the task is cancelled; no event is reported after it.
    func sleep<C: Clock<Duration>>(for delay: Duration, on clock: C) async throws {
        let start = clock.now
        if let reporter {
            for entry in schedule where entry.at <= delay {
                try await clock.sleep(until: start.advanced(by: entry.at), tolerance: nil)
                reporter.report(entry.event)
            }
        }
        try await clock.sleep(until: start.advanced(by: delay), tolerance: nil)
    }
}
