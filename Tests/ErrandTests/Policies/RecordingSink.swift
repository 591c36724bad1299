import Errand
import ErrandPolicies
import ErrandSync

/// A metrics sink that keeps every metric, in order.
final class RecordingSink: MetricsSink {
    private let storage = Locked<[RequestMetric]>([])

    /// Every metric recorded, in order.
    var metrics: [RequestMetric] { storage.withLock { $0 } }

    func record(_ metric: RequestMetric) {
        storage.withLock { $0.append(metric) }
    }
}
