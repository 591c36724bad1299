import ErrandSync

/// The dispatcher that `execute` uses when it is given none.
///
/// Out of the box it is one shared ``URLSessionDispatcher`` with no base URL (so requests need
/// absolute URLs). An app sets its own once at start-up with ``set(_:)``; a test swaps it for
/// the length of a scope with ``withOverride(_:operation:)``, which binds a task-local, so tests
/// running in parallel never see each other's dispatcher.
public enum DefaultDispatcher {
    @TaskLocal private static var override: (any NetworkDispatcher)?

    private static let processWide = Locked<any NetworkDispatcher>(URLSessionDispatcher())

    /// The dispatcher in force here: the innermost override, else the process-wide one.
    public static var current: any NetworkDispatcher {
        override ?? processWide.withLock { $0 }
    }

    /// Replaces the process-wide default, for example with one that has the app's base URL.
    public static func set(_ dispatcher: any NetworkDispatcher) {
        processWide.withLock { $0 = dispatcher }
    }

    /// Runs `operation` with `dispatcher` as the default, for this task and its child tasks only.
    public static func withOverride<Result>(
        _ dispatcher: any NetworkDispatcher, operation: () throws -> Result
    ) rethrows -> Result {
        try $override.withValue(dispatcher, operation: operation)
    }

    /// Runs `operation` with `dispatcher` as the default, for this task and its child tasks only.
    public static func withOverride<Result>(
        _ dispatcher: any NetworkDispatcher,
        isolation: isolated (any Actor)? = #isolation,
        operation: () async throws -> Result
    ) async rethrows -> Result {
        try await $override.withValue(dispatcher, operation: operation, isolation: isolation)
    }
}
