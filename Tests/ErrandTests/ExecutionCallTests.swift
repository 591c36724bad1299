import Errand
import ErrandTestSupport
import Foundation
import Testing

@Suite struct ExecutionCallTests {
    /// Captured by callbacks; its release shows that nothing holds them any more.
    private final class Owner: Sendable {}

    @Test func aFinishedCallKeepsNoneOfItsCallbacksWhileItsHandleLives() throws {
        let dispatcher = InMemoryDispatcher()
        dispatcher.stub(.get, "/users", response: .json([User(id: 1, name: "Ada")]))
        weak var released: Owner?
        let handle: any Cancellable
        do {
            let owner = Owner()
            released = owner
            handle = GetAllUsers().execute(
                dispatcher: dispatcher, callbackQueue: nil, onSuccess: { _ in _ = owner },
                onError: { _ in _ = owner })
        }

        #expect(released == nil)
        handle.cancel()
    }

    @Test func aCancelAfterTheAnswerDeliversNothingMore() async throws {
        let dispatcher = InMemoryDispatcher()
        dispatcher.stub(.get, "/users", response: .json([User(id: 1, name: "Ada")]))
        let probe = CallbackProbe<[User]>()

        let handle = GetAllUsers().execute(
            dispatcher: dispatcher, callbackQueue: nil, onSuccess: probe.onSuccess, onError: probe.onError)
        handle.cancel()

        #expect(try await probe.first().get().count == 1)
        #expect(probe.deliveries.count == 1)
    }
}
