import Errand
import ErrandSync
import Foundation

/// Answers every request with one body, on a serial queue of its own, once the test says so:
/// as `URLSession` answers on its delegate queue, always after `dispatch` has returned.
final class HeldAnswerDispatcher: NetworkDispatcher {
    /// The name the delivering queue carries under ``QueueName/key``.
    static let queueName = "transport"

    private let queue = DispatchQueue(label: "errand.tests.transport")
    private let body: Data
    private let pending = Locked<[@Sendable () -> Void]>([])
    private let dispatched = Locked<[RequestData]>([])

    init(body: Data) {
        self.body = body
        queue.setSpecific(key: QueueName.key, value: Self.queueName)
    }

    /// The requests dispatched so far.
    var receivedRequests: [RequestData] { dispatched.withLock { $0 } }

    func dispatch(
        request: RequestData, onSuccess: @escaping @Sendable (NetworkResponse) -> Void,
        onError: @escaping @Sendable (NetworkError) -> Void
    ) -> any Cancellable {
        let response = NetworkResponse(
            statusCode: 200, headers: ["Content-Type": "application/json"], body: body, request: request)
        dispatched.withLock { $0.append(request) }
        pending.withLock { $0.append { onSuccess(response) } }
        return CancellableAction {}
    }

    /// Delivers every answer held so far, on the dispatcher's queue.
    func answerAll() {
        let answers = pending.withLock { pending in
            defer { pending.removeAll() }
            return pending
        }
        for answer in answers { queue.async(execute: answer) }
    }
}

/// Names queues, so a test can tell on which one a closure ran.
enum QueueName {
    static let key = DispatchSpecificKey<String>()

    /// The name of the queue the caller runs on, or `other` for an unnamed one (a global queue).
    static var current: String { DispatchQueue.getSpecific(key: key) ?? "other" }

    /// A serial queue carrying `name`.
    static func queue(_ name: String) -> DispatchQueue {
        let queue = DispatchQueue(label: "errand.tests.\(name)")
        queue.setSpecific(key: key, value: name)
        return queue
    }
}

/// A decoded value that reports when it is released, so a test can see a dropped value go.
final class ReleasedBody: Sendable {
    let users: [User]
    private let onRelease: @Sendable () -> Void

    init(users: [User], onRelease: @escaping @Sendable () -> Void) {
        self.users = users
        self.onRelease = onRelease
    }

    deinit { onRelease() }
}

/// A request whose decode step notes the queue it runs on, then runs `during` (which may hold it).
struct ObservedDecode: RequestType {
    typealias ResponseType = ReleasedBody

    let decodedOn = Locked<[String]>([])
    var during: @Sendable () -> Void = {}
    var onRelease: @Sendable () -> Void = {}

    var data: RequestData { .get("/users") }

    func decode(_ response: NetworkResponse) throws -> ReleasedBody {
        decodedOn.withLock { $0.append(QueueName.current) }
        during()
        let users = try JSONDecoder().decode([User].self, from: response.body)
        return ReleasedBody(users: users, onRelease: onRelease)
    }
}

extension [User] {
    /// As many users as it takes for their JSON to reach `bytes`.
    static func encoded(reaching bytes: Int) throws -> Data {
        let count = bytes / 20 + 1
        return try JSONEncoder().encode((0..<count).map { User(id: $0, name: "user number \($0)") })
    }
}
