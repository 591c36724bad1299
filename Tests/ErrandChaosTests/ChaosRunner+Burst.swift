import Errand

/// Requests sent all at once: their answers and refreshes interleave in whatever order the
/// tasks run, so the check is weaker than for requests sent one after another, but it still
/// holds them to one callback each, to `cancelled` only for the one cancelled, and to outcomes
/// the chain can produce.
extension ChaosRunner {
    func sendBurst() async -> String? {
        let moment = scenario.cancel
        let deliveries = scenario.burst.map { _ in ChaosDeliveries(signal: chain.signal) }
        let handles = scenario.burst.enumerated().map { index, call in
            Self.start(
                call, on: chain.dispatcher, into: deliveries[index],
                cancelFirst: index == 0 && moment == .beforeDispatch)
        }
        var cancelled = moment == .beforeDispatch
        if moment == .rightAfterDispatch {
            cancelled = true
            handles[0].cancel()
        }
        while true {
            let seen = chain.signal.generation
            if deliveries.allSatisfy({ $0.count > 0 }) { break }
            if chain.signal.hung { return "a request sent at once got no callback (hung); \(state)" }
            if chain.clock.sleeperCount > 0 {
                if !cancelled, deliveries[0].count == 0, moment == parkedMoment {
                    cancelled = true
                    handles[0].cancel()
                } else {
                    chain.clock.advance(by: .seconds(100))
                }
                continue
            }
            await chain.signal.wait(past: seen)
        }
        if moment == .afterCompletion { handles[0].cancel() }
        if let problem = await drain() { return "requests sent at once: \(problem)" }
        for (index, delivery) in deliveries.enumerated() {
            let outcomes = delivery.all
            guard outcomes.count == 1 else {
                return "request \(index + 1) sent at once got \(outcomes.count) callbacks: \(outcomes)"
            }
            tally.count(outcomes[0], prefix: "sent at once: ")
            if let problem = implausibility(of: outcomes[0], mayBeCancelled: index == 0 && cancelled) {
                return "request \(index + 1) sent at once ended with \(outcomes[0]): \(problem)"
            }
        }
        if moment == .beforeDispatch, deliveries[0].all != [.failure(.cancelled, status: nil, attempts: 1)] {
            return "the request cancelled before dispatch ended with \(deliveries[0].all)"
        }
        return nil
    }

    /// Why the chain could never have produced `outcome`, or `nil` when it could.
    private func implausibility(of outcome: ChaosOutcome, mayBeCancelled: Bool) -> String? {
        let received = chain.server.received
        switch outcome {
        case .response(let status, let id):
            guard [200, 401, 429, 503].contains(status) else { return "the server never answers \(status)" }
            if status == 200, !(1...max(1, received)).contains(id) {
                return "no request \(id) reached the server"
            }
        case .value(let item):
            guard (1...max(1, received)).contains(item.id) else {
                return "no request \(item.id) reached the server"
            }
        case .failure(let code, let status, let attempts):
            let retries = scenario.layers.compactMap { layer -> Int? in
                if case .retrying(let maximumAttempts) = layer { return maximumAttempts }
                return nil
            }
            guard (1...(retries.first ?? 1)).contains(attempts) else {
                return "\(attempts) attempts is impossible"
            }
            switch code {
            case .cancelled:
                guard mayBeCancelled else { return "only the cancelled request may end cancelled" }
            case .timedOut, .transport:
                break
            case .sessionExpired:
                guard
                    scenario.layers.contains(where: { if case .authenticating = $0 { true } else { false } })
                else {
                    return "there is no auth policy"
                }
            case .invalidRequest:
                guard scenario.layers.contains(.intercepting(failing: true)) else {
                    return "nothing refuses requests"
                }
            case .unacceptableStatus:
                guard let status, [401, 429, 503].contains(status) else {
                    return "status \(String(describing: status))"
                }
            default:
                return "the chain never fails with \(code)"
            }
        }
        return nil
    }
}
