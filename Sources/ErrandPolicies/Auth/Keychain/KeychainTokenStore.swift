import Errand
import ErrandSync
import Foundation

/// Every decision of `KeychainTokenStorage`, over any ``KeychainItems``: the Apple-only type is
/// a face over this one, which runs and is tested on every platform.
///
/// - **One session per item.** Every store of one item (service, account, access group and
///   keychain) on one keychain object shares one lock and one ``TokenLedger``, as the file
///   storage shares one per file: two `KeychainTokenStorage(service:account:)` of the same item
///   see each other's sign-ins and sign-outs, and requests read the item once, then memory,
///   until it changes through any of them. A change made by another process is read when the
///   item is read again: at a refresh, which a 401 starts.
/// - **Update, then add, then update again.** A write updates the item, adds it when there is
///   none, and when another writer added it in between (`errSecDuplicateItem`: a second
///   process, an app extension) updates it again, a few times at most, so both first writes
///   succeed and the last one wins.
/// - **Accessibility on every write.** The configured class goes with each update as well as
///   each add, so an item made with another class moves to this one at its next write.
final class KeychainTokenStore: TokenStorage, LedgerKeepingTokenStorage {
    /// The item and how it is asked for.
    let query: KeychainQuery
    private let items: any KeychainItems
    private let item: SharedItem

    /// How many times a write tries the update-then-add cycle while other writers delete and
    /// add the item in between; more than two writers racing forever is no keychain in use.
    static let writeAttempts = 3

    /// Creates the store of `query`'s item in `items`, sharing its session with every other.
    init(query: KeychainQuery, items: any KeychainItems) {
        self.query = query
        self.items = items
        self.item = SharedItem.shared(for: query.key, in: items)
    }

    var ledger: TokenLedger { item.ledger }

    func read() async throws -> TokenPair? { try readNow() }

    func write(_ tokens: TokenPair) async throws { try writeNow(tokens) }

    func clear() async throws { try clearNow() }

    func replace(_ expected: TokenPair, with replacement: TokenPair?) async throws -> Bool {
        try replaceNow(expected, with: replacement, inSession: nil)
    }

    func replace(_ expected: TokenPair, with replacement: TokenPair?, inSession generation: UInt64?)
        async throws -> Bool
    {
        try replaceNow(expected, with: replacement, inSession: generation)
    }

    // MARK: Without suspending: each keychain call blocks, and nothing here awaits

    /// The stored pair, read from the keychain.
    func readNow() throws -> TokenPair? {
        try item.lock.withLock { _ in try readItem() }
    }

    /// Stores `tokens` as a new session.
    func writeNow(_ tokens: TokenPair) throws {
        try item.lock.withLock { _ in
            try writeItem(tokens)
            ledger.advance()
        }
    }

    /// Deletes the item, ending the session.
    func clearNow() throws {
        try item.lock.withLock { _ in
            try deleteItem()
            ledger.advance()
        }
    }

    /// Replaces `expected` with `replacement` (`nil` deletes) while the item holds `expected` in
    /// session `generation` (any, for `nil`); whether it did. A refresh continues the session.
    func replaceNow(_ expected: TokenPair, with replacement: TokenPair?, inSession generation: UInt64?) throws
        -> Bool
    {
        try item.lock.withLock { _ in
            guard isIn(session: generation), try readItem() == expected else { return false }
            if let replacement {
                try writeItem(replacement)
                ledger.touch()
            } else {
                try deleteItem()
                ledger.advance()
            }
            return true
        }
    }

    // MARK: The item

    private func readItem() throws -> TokenPair? {
        let (status, data) = items.copyData(query)
        switch status {
        case KeychainStatus.itemNotFound:
            return nil
        case KeychainStatus.success:
            guard let data else {
                throw TokenStorageCoding.failure("\(query.place) returned no data", cause: Missing())
            }
            return try TokenStorageCoding.decode(data, from: query.place)
        default:
            throw KeychainStatus.error(status, place: query.place, action: "read")
        }
    }

    private func writeItem(_ tokens: TokenPair) throws {
        let data = try TokenStorageCoding.encode(tokens, to: query.place)
        var status = KeychainStatus.duplicateItem
        for _ in 0..<Self.writeAttempts {
            status = items.update(query, data: data)
            if status == KeychainStatus.itemNotFound { status = items.add(query, data: data) }
            // Added by another writer between the update and the add: update it now.
            guard status == KeychainStatus.duplicateItem else { break }
        }
        guard status == KeychainStatus.success else {
            throw KeychainStatus.error(status, place: query.place, action: "written")
        }
    }

    private func deleteItem() throws {
        let status = items.delete(query)
        guard status == KeychainStatus.success || status == KeychainStatus.itemNotFound else {
            throw KeychainStatus.error(status, place: query.place, action: "deleted")
        }
    }

    /// The keychain said success without the data it was asked for.
    private struct Missing: Error {}

    // MARK: One per item

    /// One item as every store of it in this process sees it: the lock held across each read
    /// and change of the item, so that a compare-and-set and a clear never interleave, and the
    /// item's session ledger, told of every change under that lock.
    final class SharedItem: Sendable {
        let lock = Locked(())
        let ledger = TokenLedger(countsItsOwnChanges: true)

        private struct Key: Hashable {
            let item: KeychainQuery.Key
            let keychain: ObjectIdentifier
        }

        private struct Weak {
            weak var item: SharedItem?
            // Held, so that the keychain's identifier is not reused while the entry lives.
            let keychain: any KeychainItems
        }

        private static let registry = Locked<[Key: Weak]>([:])

        /// The shared state of `key`'s item in `keychain`, made on first use.
        static func shared(for key: KeychainQuery.Key, in keychain: any KeychainItems) -> SharedItem {
            let key = Key(item: key, keychain: ObjectIdentifier(keychain))
            return registry.withLock { registry in
                if let item = registry[key]?.item { return item }
                registry = registry.filter { $0.value.item != nil }
                let item = SharedItem()
                registry[key] = Weak(item: item, keychain: keychain)
                return item
            }
        }
    }
}
