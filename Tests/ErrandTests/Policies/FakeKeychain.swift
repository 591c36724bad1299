import ErrandSync
import Foundation

@testable import Errand
@testable import ErrandPolicies

/// An in-memory keychain that answers with the Security framework's real `OSStatus` codes.
///
/// It counts its calls and keeps their queries, can be told to answer a status instead
/// (``answer(_:with:)``, ``isLocked``), and can let another writer in just before a call
/// (``beforeNext(_:run:)``). ``anotherProcess()`` gives a second keychain object over the same
/// items: a second process, whose storages share nothing in memory with this one's.
final class FakeKeychain: KeychainItems {
    /// One of the four calls.
    enum Call: Hashable, Sendable { case copy, update, add, delete }

    /// An item as the keychain holds it.
    struct Item: Equatable, Sendable {
        var data: Data
        var accessibility: KeychainAccessibility?
    }

    /// The items, shared by every process's view.
    final class Shelf: Sendable {
        let items = Locked<[KeychainQuery.Key: Item]>([:])
    }

    private struct Script {
        var calls: [(call: Call, query: KeychainQuery)] = []
        var answers: [Call: Int32] = [:]
        var hooks: [Call: [@Sendable () -> Void]] = [:]
        var locked = false
    }

    let shelf: Shelf
    private let script = Locked(Script())

    init(shelf: Shelf = Shelf()) {
        self.shelf = shelf
    }

    /// A second process's keychain over the same items.
    func anotherProcess() -> FakeKeychain { FakeKeychain(shelf: shelf) }

    // MARK: Scripting and inspection

    /// While set, every call answers `errSecInteractionNotAllowed`, as on a locked device.
    var isLocked: Bool {
        get { script.withLock { $0.locked } }
        set { script.withLock { $0.locked = newValue } }
    }

    /// Answers every `call` with `status` (without touching the items); `nil` stops it.
    func answer(_ call: Call, with status: Int32?) {
        script.withLock { $0.answers[call] = status }
    }

    /// Runs `body` just before the next `call`, outside every lock: another writer's turn.
    func beforeNext(_ call: Call, run body: @escaping @Sendable () -> Void) {
        script.withLock { $0.hooks[call, default: []].append(body) }
    }

    /// How many times `call` was made.
    func count(_ call: Call) -> Int { script.withLock { $0.calls.filter { $0.call == call }.count } }

    /// The calls in order.
    var calls: [Call] { script.withLock { $0.calls.map(\.call) } }

    /// The queries `call` was made with, in order.
    func queries(_ call: Call) -> [KeychainQuery] {
        script.withLock { $0.calls.filter { $0.call == call }.map(\.query) }
    }

    /// The item `query` names, as stored.
    func item(_ query: KeychainQuery) -> Item? { shelf.items.withLock { $0[query.key] } }

    /// Stores `tokens` under `query` as another program would, telling no storage.
    func putBehindTheStoragesBack(_ tokens: TokenPair, for query: KeychainQuery) throws {
        let data = try TokenStorageCoding.encode(tokens, to: "test")
        shelf.items.withLock { $0[query.key] = Item(data: data, accessibility: query.accessibility) }
    }

    // MARK: KeychainItems

    func copyData(_ query: KeychainQuery) -> (status: Int32, data: Data?) {
        if let status = begin(.copy, query) { return (status, nil) }
        guard let item = shelf.items.withLock({ $0[query.key] }) else {
            return (KeychainStatus.itemNotFound, nil)
        }
        return (KeychainStatus.success, item.data)
    }

    func update(_ query: KeychainQuery, data: Data) -> Int32 {
        if let status = begin(.update, query) { return status }
        return shelf.items.withLock { items in
            guard var item = items[query.key] else { return KeychainStatus.itemNotFound }
            item.data = data
            if let accessibility = query.accessibility { item.accessibility = accessibility }
            items[query.key] = item
            return KeychainStatus.success
        }
    }

    func add(_ query: KeychainQuery, data: Data) -> Int32 {
        if let status = begin(.add, query) { return status }
        return shelf.items.withLock { items in
            guard items[query.key] == nil else { return KeychainStatus.duplicateItem }
            items[query.key] = Item(data: data, accessibility: query.accessibility)
            return KeychainStatus.success
        }
    }

    func delete(_ query: KeychainQuery) -> Int32 {
        if let status = begin(.delete, query) { return status }
        return shelf.items.withLock { items in
            items.removeValue(forKey: query.key) == nil ? KeychainStatus.itemNotFound : KeychainStatus.success
        }
    }

    /// Records the call, runs the hook due before it, and gives the scripted answer, if any.
    private func begin(_ call: Call, _ query: KeychainQuery) -> Int32? {
        let (hook, answer) = script.withLock { script -> ((@Sendable () -> Void)?, Int32?) in
            script.calls.append((call, query))
            let hook = script.hooks[call]?.isEmpty == false ? script.hooks[call]?.removeFirst() : nil
            let answer = script.locked ? KeychainStatus.interactionNotAllowed : script.answers[call]
            return (hook, answer)
        }
        hook?()
        return answer
    }
}
