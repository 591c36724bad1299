import Errand
import ErrandSync
import Foundation

/// Runs a scenario through its real chain, stepping the manual clock and cancelling at the
/// scenario's moment, and checks every request against ``ChaosModel``.
struct ChaosRunner {
    let scenario: ChaosScenario
    let chain: ChaosChain
    let tally: ChaosTally
    private var model: ChaosModel
    /// Set once the last request is cancelled before its callback came.
    private var cancelledBeforeDelivery = false

    /// What went wrong in the scenario of `seed`, or `nil` when every check held.
    ///
    /// `signal` must be watched (``ChaosSignal/watching(_:)``) so that a hang is reported.
    static func failure(
        seed: UInt64, directory: URL, signal: ChaosSignal, tally: ChaosTally = ChaosTally()
    ) async -> String? {
        let scenario = ChaosScenario(seed: seed)
        var runner = ChaosRunner(scenario: scenario, directory: directory, signal: signal, tally: tally)
        let problem = await runner.run()
        if let cassette = runner.chain.cassette { try? FileManager.default.removeItem(at: cassette) }
        return problem.map { "\($0)\n\(scenario)" }
    }

    private init(scenario: ChaosScenario, directory: URL, signal: ChaosSignal, tally: ChaosTally) {
        self.scenario = scenario
        self.tally = tally
        chain = ChaosChain(scenario, directory: directory, signal: signal)
        model = ChaosModel(scenario)
    }

    private mutating func run() async -> String? {
        for (index, call) in scenario.calls.enumerated() {
            let isLast = index == scenario.calls.count - 1
            let moment: ChaosScenario.Moment =
                !scenario.burst.isEmpty ? .never : scenario.cancel.isWait || isLast ? scenario.cancel : .never
            if let problem = await send(call, number: index + 1, moment: moment) { return problem }
            // The model cannot follow a request cancelled halfway, so none is sent after it.
            if cancelledBeforeDelivery { break }
        }
        if !cancelledBeforeDelivery, let problem = sideEffectProblem() { return problem }
        return scenario.burst.isEmpty ? nil : await sendBurst()
    }

    /// Sends one request, drives it to its callback, and checks the callback.
    private mutating func send(_ call: ChaosScenario.Call, number: Int, moment: ChaosScenario.Moment) async
        -> String?
    {
        let receivedBefore = chain.server.received
        let expected = model.send(call)
        let deliveries = ChaosDeliveries(signal: chain.signal)
        let handle = Self.start(
            call, on: chain.dispatcher, into: deliveries, cancelFirst: moment == .beforeDispatch)
        var racing = false
        if moment == .rightAfterDispatch {
            racing = deliveries.count == 0
            handle.cancel()
        }
        var cancelled = moment == .beforeDispatch
        while true {
            let seen = chain.signal.generation
            if deliveries.count > 0 { break }
            if chain.signal.hung { return "request \(number) got no callback (hung); \(state)" }
            if !cancelled, !racing, chain.clock.sleeperCount > 0 {
                if moment == parkedMoment {
                    cancelled = true
                    handle.cancel()
                } else {
                    chain.clock.advance(by: .seconds(100))
                }
                continue
            }
            await chain.signal.wait(past: seen)
        }
        if moment == .afterCompletion { handle.cancel() }
        if cancelled {
            cancelledBeforeDelivery = true
            if let problem = await abandonedProblem(moment) { return "request \(number): \(problem)" }
        }
        if let problem = await drain() { return "request \(number): \(problem)" }
        let outcomes = deliveries.all
        guard outcomes.count == 1 else {
            return "request \(number) got \(outcomes.count) callbacks: \(outcomes)"
        }
        let outcome = outcomes[0]
        if cancelled { tally.count("cancelled \(moment)") } else { tally.count(outcome) }
        let cancelledOutcome = ChaosOutcome.failure(.cancelled, status: nil, attempts: 1)
        if cancelled {
            guard outcome == cancelledOutcome else {
                return "request \(number) was cancelled \(moment) and ended with \(outcome), not cancelled"
            }
            if moment == .beforeDispatch, chain.server.received != receivedBefore {
                return "request \(number) was cancelled before dispatch and still reached the server"
            }
            return nil
        }
        if racing, outcome == cancelledOutcome {
            cancelledBeforeDelivery = true
            return nil
        }
        guard outcome == expected else {
            return "request \(number) ended with \(outcome); the chain's rules say \(expected)"
        }
        return nil
    }

    /// Which moment the parked chain is in, judged by what waits on the clock.
    var parkedMoment: ChaosScenario.Moment {
        if chain.server.pendingSlow > 0 { return .duringDispatch }
        if chain.refresher.pending > 0 { return .duringRefresh }
        return .duringRetryWait
    }

    var state: String {
        "sleepers \(chain.clock.sleeperCount), slow answers \(chain.server.pendingSlow), "
            + "refreshes waiting \(chain.refresher.pending), server requests \(chain.server.received)"
    }

    /// After a cancel during a wait, the wait must end without the clock moving (a refresh
    /// that others may share is allowed to go on).
    private func abandonedProblem(_ moment: ChaosScenario.Moment) async -> String? {
        guard moment == .duringDispatch || moment == .duringRetryWait else { return nil }
        while true {
            let seen = chain.signal.generation
            if chain.clock.sleeperCount <= chain.refresher.pending { return nil }
            if chain.signal.hung { return "cancelled \(moment), but the wait went on; \(state)" }
            await chain.signal.wait(past: seen)
        }
    }

    /// Lets everything still running finish, then gives a stray second callback time to show.
    func drain() async -> String? {
        while true {
            let seen = chain.signal.generation
            if chain.clock.sleeperCount == 0, chain.server.pendingSlow == 0, chain.refresher.pending == 0 {
                break
            }
            if chain.signal.hung { return "work never finished; \(state)" }
            if chain.clock.sleeperCount > 0 {
                chain.clock.advance(by: .seconds(100))
                continue
            }
            await chain.signal.wait(past: seen)
        }
        for _ in 0..<3 { await Task.yield() }
        return nil
    }

    /// Whether the server, the refresher, the metrics and the log saw what the rules say.
    private func sideEffectProblem() -> String? {
        if chain.server.received != model.serverRequests {
            return "the server got \(chain.server.received) requests; the rules say \(model.serverRequests)"
        }
        if chain.refresher.runs != model.refreshes {
            return "\(chain.refresher.runs) refreshes ran; the rules say \(model.refreshes)"
        }
        let ends = chain.sessionEnds.withLock { $0 }
        if ends != model.sessionEnds {
            return "the session ended \(ends) times; the rules say \(model.sessionEnds)"
        }
        for (index, layer) in scenario.layers.enumerated() {
            switch layer {
            case .measuring where chain.metrics.count != model.passes[index]:
                return "\(chain.metrics.count) metrics recorded for \(model.passes[index]) requests"
            case .logging(let level) where level > .none:
                let lines = chain.logLines.withLock { $0 }
                if lines != 2 * model.passes[index] {
                    return "\(lines) log lines for \(model.passes[index]) requests"
                }
            default: continue
            }
        }
        return nil
    }

    /// Starts `call` by its entry and returns what cancels it.
    static func start(
        _ call: ChaosScenario.Call, on dispatcher: any NetworkDispatcher, into deliveries: ChaosDeliveries,
        cancelFirst: Bool
    ) -> any Cancellable {
        let request = ChaosChain.request(for: call)
        switch call.entry {
        case .dispatch:
            return dispatcher.dispatch(
                request: request, onSuccess: { deliveries.record(.init($0)) },
                onError: { deliveries.record(.init($0)) })
        case .execute:
            return Request<Item>(request)
                .execute(
                    dispatcher: dispatcher, callbackQueue: nil, onSuccess: { deliveries.record(.value($0)) },
                    onError: { deliveries.record(.init($0)) })
        case .dispatchAsync, .executeAsync:
            let decodes = call.entry == .executeAsync
            let task = Task {
                if cancelFirst { withUnsafeCurrentTask { $0?.cancel() } }
                do {
                    if decodes {
                        let item = try await Request<Item>(request).execute(dispatcher: dispatcher)
                        deliveries.record(.value(item))
                    } else {
                        let response = try await dispatcher.dispatch(request)
                        deliveries.record(.init(response))
                    }
                } catch let error as NetworkError {
                    deliveries.record(.init(error))
                } catch {
                    deliveries.record(.failure(.invalidRequest, status: -1, attempts: -1))
                }
            }
            return CancellableAction { task.cancel() }
        }
    }
}
