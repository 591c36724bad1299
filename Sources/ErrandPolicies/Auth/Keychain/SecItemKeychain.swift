import Errand

#if canImport(Security)
    import Foundation
    import Security

    /// The keychain of Apple platforms: each call is one `SecItem` function on the query's
    /// dictionary, with no decision of its own (``KeychainTokenStore`` makes them).
    final class SecItemKeychain: KeychainItems {
        /// The one keychain object of the process, so that its storages share their sessions.
        static let shared = SecItemKeychain()

        func copyData(_ query: KeychainQuery) -> (status: Int32, data: Data?) {
            var search = Self.match(query)
            search[kSecReturnData as String] = true
            search[kSecMatchLimit as String] = kSecMatchLimitOne
            var result: CFTypeRef?
            let status = SecItemCopyMatching(search as CFDictionary, &result)
            return (status, result as? Data)
        }

        func update(_ query: KeychainQuery, data: Data) -> Int32 {
            SecItemUpdate(Self.match(query) as CFDictionary, Self.contents(query, data) as CFDictionary)
        }

        func add(_ query: KeychainQuery, data: Data) -> Int32 {
            let item = Self.match(query).merging(Self.contents(query, data)) { _, content in content }
            return SecItemAdd(item as CFDictionary, nil)
        }

        func delete(_ query: KeychainQuery) -> Int32 {
            SecItemDelete(Self.match(query) as CFDictionary)
        }

        /// The attributes that find the item, and the keychain to look in.
        private static func match(_ query: KeychainQuery) -> [String: Any] {
            var match: [String: Any] = [
                kSecClass as String: kSecClassGenericPassword,
                kSecAttrService as String: query.service,
                kSecAttrAccount as String: query.account,
            ]
            if let group = query.accessGroup { match[kSecAttrAccessGroup as String] = group }
            if query.usesDataProtectionKeychain { match[kSecUseDataProtectionKeychain as String] = true }
            return match
        }

        /// What an add or an update sets: the data and the accessibility.
        private static func contents(_ query: KeychainQuery, _ data: Data) -> [String: Any] {
            var contents: [String: Any] = [kSecValueData as String: data]
            if let accessibility = query.accessibility {
                contents[kSecAttrAccessible as String] = constant(for: accessibility)
            }
            return contents
        }

        private static func constant(for accessibility: KeychainAccessibility) -> CFString {
            switch accessibility {
            case .whenPasscodeSetThisDeviceOnly: kSecAttrAccessibleWhenPasscodeSetThisDeviceOnly
            case .whenUnlockedThisDeviceOnly: kSecAttrAccessibleWhenUnlockedThisDeviceOnly
            case .whenUnlocked: kSecAttrAccessibleWhenUnlocked
            case .afterFirstUnlockThisDeviceOnly: kSecAttrAccessibleAfterFirstUnlockThisDeviceOnly
            case .afterFirstUnlock: kSecAttrAccessibleAfterFirstUnlock
            }
        }
    }
#endif
