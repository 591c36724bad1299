#if canImport(Security)
    import Foundation
    import Security

    /// Token storage in the Keychain, as one generic-password item. Apple platforms only.
    ///
    /// A keychain failure or an item that does not hold valid tokens throws a `NetworkError`
    /// with code `tokenStorage` that names the item.
    public final class KeychainTokenStorage: TokenStorage {
        /// The item's service name.
        public let service: String
        /// The item's account name.
        public let account: String

        /// Creates a storage for the item identified by `service` and `account`.
        public init(service: String, account: String = "tokens") {
            self.service = service
            self.account = account
        }

        /// The stored pair.
        public func read() async throws -> TokenPair? {
            var query = baseQuery
            query[kSecReturnData as String] = true
            query[kSecMatchLimit as String] = kSecMatchLimitOne
            var result: CFTypeRef?
            let status = SecItemCopyMatching(query as CFDictionary, &result)
            if status == errSecItemNotFound { return nil }
            guard status == errSecSuccess, let data = result as? Data else { throw error(status) }
            return try TokenStorageCoding.decode(data, from: place)
        }

        /// Replaces the stored pair.
        public func write(_ tokens: TokenPair) async throws {
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

        /// Removes the stored pair.
        public func clear() async throws {
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
