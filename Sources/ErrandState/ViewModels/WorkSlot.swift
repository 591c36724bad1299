/// The one piece of work a view model runs at a time, with the generation that tells late
/// answers from current ones.
///
/// Every view model needs the same three things: at most one task, a way to cancel it, and a
/// way for a task that was replaced to know it must not write its answer. Cancelling is not
/// enough for the last one: a cancelled request still resumes its task (with `cancelled`, or
/// with an answer that was already on its way), and a task resumes on the main actor only after
/// the new one may have started. So each start bumps ``generation``, and a task writes only
/// while ``isCurrent(_:)`` says its generation is still the current one.
@MainActor
final class WorkSlot {
    /// The running task, or `nil` when idle.
    private(set) var task: Task<Void, Never>?
    /// Bumped by every start and cancel.
    private(set) var generation = 0

    /// Whether a task is running.
    var isRunning: Bool { task != nil }

    /// Cancels the running task, if any, and starts `body` as the current work.
    ///
    /// - Parameter body: The work; it is given its generation, to check with ``isCurrent(_:)``
    ///   before it writes anything.
    /// - Returns: The new task, to await when the caller wants to.
    func start(_ body: @escaping @MainActor (_ generation: Int) async -> Void) -> Task<Void, Never> {
        task?.cancel()
        generation &+= 1
        let generation = generation
        let task = Task { [weak self] in
            await body(generation)
            self?.finish(generation)
        }
        self.task = task
        return task
    }

    /// Whether `generation` is still the current work's.
    func isCurrent(_ generation: Int) -> Bool {
        generation == self.generation && task != nil
    }

    /// Cancels the running task; whatever it answers later is dropped.
    func cancel() {
        task?.cancel()
        task = nil
        generation &+= 1
    }

    /// Forgets the task once it is done, unless newer work replaced it.
    private func finish(_ generation: Int) {
        if generation == self.generation { task = nil }
    }

    /// A task that is already done, for calls that had nothing to start.
    static var done: Task<Void, Never> { Task {} }

    // A task holds its view model weakly, so dropping the view model cancels its request.
    deinit {
        task?.cancel()
    }
}
