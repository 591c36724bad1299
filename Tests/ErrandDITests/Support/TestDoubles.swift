import ErrandDI
import ErrandSync

// Stand-ins for the networking types of the seed API (`NetworkDispatcher`, `TokenStorage`),
// which live in the `Errand` module that ErrandDI must not depend on.

/// A stand-in for a network dispatcher protocol.
protocol HTTPClient: Sendable {
    /// The base URL the client sends to.
    var baseURL: String { get }
}

/// A stand-in for `URLSessionDispatcher`.
final class URLClient: HTTPClient {
    let baseURL: String

    init(baseURL: String) {
        self.baseURL = baseURL
    }
}

/// A stand-in for `InMemoryDispatcher`, tagged so tests can tell instances apart.
final class FakeClient: HTTPClient {
    let baseURL: String
    let tag: Int

    init(tag: Int = 0, baseURL: String = "fake://") {
        self.tag = tag
        self.baseURL = baseURL
    }
}

/// A stand-in for `TokenStorage`.
final class TokenStore: Sendable {
    let token: String

    init(token: String) {
        self.token = token
    }
}

/// A service with one dependency, like the seed's `ProfileService`.
final class ProfileService: Sendable {
    let client: any HTTPClient

    init(client: any HTTPClient) {
        self.client = client
    }
}

/// A thread-safe counter of factory runs.
final class Counter: Sendable {
    private let count = Locked(0)

    /// Counts one more and returns the new total.
    @discardableResult
    func increment() -> Int {
        count.withLock { value in
            value += 1
            return value
        }
    }

    var value: Int {
        count.withLock { $0 }
    }
}

/// A class whose instances tests compare by identity.
final class Session: Sendable {
    let number: Int

    init(number: Int) {
        self.number = number
    }
}

/// A class and a subclass, for keys.
class Animal {}

final class Dog: Animal {}

/// A value type, for scopes that need classes.
struct Config: Sendable, Equatable {
    var retries: Int
}

/// A request interceptor, for multibindings.
protocol RequestInterceptor: Sendable {
    var label: String { get }
}

struct LabelInterceptor: RequestInterceptor {
    let label: String
}

extension DI.Name {
    static let primary = DI.Name("primary")
    static let backup = DI.Name("backup")
    static let uploads = DI.Name("uploads")
}

extension DI.ScopeName {
    static let checkout = DI.ScopeName("checkout")
}

/// A typed setting of the tests' own, declared as users declare theirs.
enum RetryCountKey: DI.SettingKey {
    static let defaultValue = 3
}

extension DI.Settings {
    var retryCount: Int {
        get { self[RetryCountKey.self] }
        set { self[RetryCountKey.self] = newValue }
    }
}
