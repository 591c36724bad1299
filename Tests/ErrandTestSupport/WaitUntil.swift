import Testing

/// Yields until `condition` holds, failing the test instead of hanging when it never does.
///
/// It never sleeps: each round gives other tasks a turn. The bound is on rounds, not time.
/// It runs on the caller's actor, so the condition may read main-actor state.
package func waitUntil(
    _ description: @autoclosure () -> String = "condition", rounds: Int = 2_000_000,
    isolation: isolated (any Actor)? = #isolation,
    sourceLocation: SourceLocation = #_sourceLocation, _ condition: () -> Bool
) async {
    for _ in 0..<rounds {
        if condition() { return }
        await Task.yield()
    }
    Issue.record("gave up waiting for \(description())", sourceLocation: sourceLocation)
}
