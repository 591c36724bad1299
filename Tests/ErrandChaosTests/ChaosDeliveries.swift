import Errand
import ErrandSync
import Foundation

/// Every callback one request got.
final class ChaosDeliveries: Sendable {
    private let outcomes = Locked<[ChaosOutcome]>([])
    private let signal: ChaosSignal

    init(signal: ChaosSignal) {
        self.signal = signal
    }

    var count: Int { outcomes.withLock { $0.count } }
    var all: [ChaosOutcome] { outcomes.withLock { $0 } }

    func record(_ outcome: ChaosOutcome) {
        outcomes.withLock { $0.append(outcome) }
        signal.poke()
    }
}

extension ChaosOutcome {
    /// A raw response as the test sees it.
    init(_ response: NetworkResponse) {
        let item = try? JSONDecoder().decode(Item.self, from: response.body)
        self = .response(status: response.statusCode, id: item?.id ?? 0)
    }

    /// A failure as the test sees it.
    init(_ error: NetworkError) {
        self = .failure(error.code, status: error.statusCode, attempts: error.attempts)
    }
}
