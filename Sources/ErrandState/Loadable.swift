import Errand

/// The state of something a screen loads: not asked for yet, loading, loaded, or failed.
///
/// `loading` and `failed` keep the value shown before, so a screen that reloads keeps showing
/// its content under a spinner or an error banner instead of going blank:
///
/// ```swift
/// switch model.state {
/// case .idle: EmptyView()
/// case .loading(let previous): previous.map(UserList.init) ?? ProgressView()
/// case .loaded(let users): UserList(users)
/// case .failed(let error, let previous): ErrorBanner(error.userMessage, showing: previous)
/// }
/// ```
///
/// Most screens only need the accessors: ``value`` (the newest value, whatever the state),
/// ``error`` and ``isLoading``. `Sendable` when `Value` is; `Equatable` when `Value` is, with
/// errors compared by code, status and message.
public enum Loadable<Value> {
    /// Nothing was asked for yet.
    case idle
    /// A load is running; `previous` is the value loaded before, if any.
    case loading(previous: Value?)
    /// The value arrived.
    case loaded(Value)
    /// The last load failed; `previous` is the value loaded before, if any.
    case failed(NetworkError, previous: Value?)

    /// The newest value: the loaded one, or the one kept while loading or after a failure.
    public var value: Value? {
        switch self {
        case .idle: nil
        case .loading(let previous): previous
        case .loaded(let value): value
        case .failed(_, let previous): previous
        }
    }

    /// The error of the last load, when it failed.
    public var error: NetworkError? {
        if case .failed(let error, _) = self { return error }
        return nil
    }

    /// Whether a load is running.
    public var isLoading: Bool {
        if case .loading = self { return true }
        return false
    }

    /// Whether nothing was asked for yet.
    public var isIdle: Bool {
        if case .idle = self { return true }
        return false
    }

    /// This state with its value, current or kept, transformed by `transform`.
    ///
    /// - Parameter transform: Turns a value into another, for example a model into rows.
    /// - Returns: The same state, holding the transformed value.
    public func map<Other>(_ transform: (Value) throws -> Other) rethrows -> Loadable<Other> {
        switch self {
        case .idle: .idle
        case .loading(let previous): .loading(previous: try previous.map(transform))
        case .loaded(let value): .loaded(try transform(value))
        case .failed(let error, let previous): .failed(error, previous: try previous.map(transform))
        }
    }

    /// The state a new load starts in: loading, keeping the current value.
    var startingLoad: Loadable<Value> { .loading(previous: value) }

    /// The state a load ends in when it fails: the error, keeping the current value.
    func failing(with error: NetworkError) -> Loadable<Value> { .failed(error, previous: value) }

    /// The state a load ends in: the value it loaded, or its failure keeping the current value.
    func finishing(with result: Result<Value, NetworkError>) -> Loadable<Value> {
        switch result {
        case .success(let value): .loaded(value)
        case .failure(let error): failing(with: error)
        }
    }

    /// The state after a cancelled load: the value kept, as loaded, or idle when there was none.
    var settled: Loadable<Value> {
        switch self {
        case .loading(let previous): previous.map { .loaded($0) } ?? .idle
        default: self
        }
    }
}

extension Loadable: Sendable where Value: Sendable {}

extension Loadable: Equatable where Value: Equatable {
    /// Whether both are the same case with equal values; errors match by code, status and message.
    public static func == (lhs: Loadable<Value>, rhs: Loadable<Value>) -> Bool {
        switch (lhs, rhs) {
        case (.idle, .idle): true
        case (.loading(let left), .loading(let right)): left == right
        case (.loaded(let left), .loaded(let right)): left == right
        case (.failed(let leftError, let left), .failed(let rightError, let right)):
            left == right && leftError.code == rightError.code
                && leftError.statusCode == rightError.statusCode && leftError.message == rightError.message
        default: false
        }
    }
}
