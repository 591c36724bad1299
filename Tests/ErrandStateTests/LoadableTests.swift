import Errand
import ErrandState
import Testing

@Suite struct LoadableTests {
    let failure = NetworkError(code: .timedOut, message: "slow")

    @Test func accessorsReadEveryCase() {
        // Given one state of each case
        let idle = Loadable<Int>.idle
        let loading = Loadable<Int>.loading(previous: 1)
        let loaded = Loadable<Int>.loaded(2)
        let failed = Loadable<Int>.failed(failure, previous: 3)

        // Then the value is the loaded or kept one, the error only on failure
        #expect(idle.value == nil && idle.error == nil && !idle.isLoading && idle.isIdle)
        #expect(loading.value == 1 && loading.error == nil && loading.isLoading && !loading.isIdle)
        #expect(loaded.value == 2 && loaded.error == nil && !loaded.isLoading)
        #expect(failed.value == 3 && failed.error?.code == .timedOut && !failed.isLoading)
        #expect(Loadable<Int>.loading(previous: nil).value == nil)
    }

    @Test func equalityComparesCaseValueAndErrorCode() {
        #expect(Loadable<Int>.idle == .idle)
        #expect(Loadable<Int>.loading(previous: 1) == .loading(previous: 1))
        #expect(Loadable<Int>.loading(previous: 1) != .loading(previous: nil))
        #expect(Loadable<Int>.loaded(1) != .loading(previous: 1))
        #expect(Loadable<Int>.failed(failure, previous: 1) == .failed(failure, previous: 1))
        #expect(
            Loadable<Int>.failed(failure, previous: 1)
                != .failed(NetworkError(code: .transport, message: "slow"), previous: 1))
    }

    @Test func mapTransformsTheKeptValueToo() {
        // When a failed state with a kept value is mapped
        let mapped = Loadable<Int>.failed(failure, previous: 2).map { "#\($0)" }

        // Then the error stays and the kept value is transformed
        #expect(mapped == .failed(failure, previous: "#2"))
        #expect(Loadable<Int>.loaded(4).map { $0 * 2 } == .loaded(8))
    }

    @Test func isSendableWhenItsValueIs() async {
        // Given a state handed to a detached task
        let state = Loadable<[String]>.loaded(["a"])
        let value = await Task.detached { state.value }.value
        #expect(value == ["a"])
    }
}
