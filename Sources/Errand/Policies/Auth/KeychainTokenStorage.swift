#if canImport(Security)
    import Foundation
    import Security

    /// Token storage in the Keychain, as one generic-password item. Apple platforms only.
    ///
    /// A keychain failure or an item that does not hold valid tokens throws a `NetworkError`
    /// with code `tokenStorage` that names the item. Every ``write(_:)`` and ``clear()`` starts
    /// a new session for the auth policies on this storage; ``replace(_:with:)`` is atomic with
    /// both within the process.
    public final class KeychainTokenStorage: TokenStorage, LedgerKeepingTokenStorage, @unchecked Sendable {
        /// The item's service name.
        public let service: String
        /// The item's account name.
        public let account: String
        let ledger = TokenLedger(countsItsOwnChanges: true)
        // `@unchecked Sendable`: the lets are immutable and the lock is thread-safe; it makes
        // each read-compare-write of the item one step for this process.
        private let lock = NSLock()

        /// Creates a storage for the item identified by `service` and `account`.
        public init(service: String, account: String = "tokens") {
            self.service = service
            self.account = account
        }

        /// The stored pair.
        public func read() async throws -> TokenPair? {
            try lock.withLock { try readItem() }
        }

        /// Replaces the stored pair, as a new session.
        public func write(_ tokens: TokenPair) async throws {
            try lock.withLock {
                try writeItem(tokens)
                ledger.advance()
            }
        }

        /// Removes the stored pair, ending the session.
        public func clear() async throws {
            try lock.withLock {
                try deleteItem()
                ledger.advance()
            }
        }

        /// Replaces the stored pair only if it is still `expected`.
        ///
        /// - Parameters:
        ///   - expected: The pair the change was computed from.
        ///   - replacement: The new pair, or `nil` to delete the item.
        /// - Returns: Whether the item held `expected` and was changed.
        public func replace(_ expected: TokenPair, with replacement: TokenPair?) async throws -> Bool {
            try await replace(expected, with: replacement, inSession: nil)
        }

        func replace(_ expected: TokenPair, with replacement: TokenPair?, inSession generation: UInt64?)
            async throws -> Bool
        {
            try lock.withLock {
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

        private func readItem() throws -> TokenPair? {
            var query = baseQuery
            query[kSecReturnData as String] = true
            query[kSecMatchLimit as String] = kSecMatchLimitOne
            var result: CFTypeRef?
            let status = SecItemCopyMatching(query as CFDictionary, &result)
            if status == errSecItemNotFound { return nil }
            guard status == errSecSuccess, let data = result as? Data else { throw error(status) }
            return try TokenStorageCoding.decode(data, from: place)
        }

        private func writeItem(_ tokens: TokenPair) throws {
            let data = try TokenStorageCoding.encode(tokens, to: place)
            let update = [kSecValueData as String: data] as CFDictionary
            var status = SecItemUpdate(baseQuery as CFDictionary, update)
            if status == errSecItemNotFound {
                var item = baseQuery
                item[kSecValueData as String] = data
                item[kSecAttrAccessible as String] = kSecAttrAccessibleAfterFirstUnlockThisDeviceOnly
                status = SecItemAdd(item as CFDictionary, nil)
            }
            guard status == errSecSuccess else { throw error(status) }
        }

        private func deleteItem() throws {
            let status = SecItemDelete(baseQuery as CFDictionary)
            guard status == errSecSuccess || status == errSecItemNotFound else { throw error(status) }
        }

        private var baseQuery: [String: Any] {
            [
                kSecClass as String: kSecClassGenericPassword,
                kSecAttrService as String: service,
                kSecAttrAccount as String: account,
            ]
        }

        /// The item, as error messages name it.
        private var place: String { "the keychain item \(service)/\(account)" }

        private func error(_ status: OSStatus) -> NetworkError {
            TokenStorageCoding.failure(
                "\(place) could not be accessed (OSStatus \(status))",
                cause: NSError(domain: NSOSStatusErrorDomain, code: Int(status)))
        }
    }
#endif
