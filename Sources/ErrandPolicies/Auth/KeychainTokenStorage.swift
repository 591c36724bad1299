import Errand

#if canImport(Security)
    import Foundation

    /// Token storage in the Keychain, as one generic-password item. Apple platforms only.
    ///
    /// Every storage made for one item in a process (the same service, account, access group
    /// and keychain) shares one session, as ``FileTokenStorage`` does per file: a sign-out
    /// through one is seen by all, and the auth policies on any of them read the item once,
    /// then send the tokens from memory until a write, a `clear()` or a refresh changes them.
    /// A change made by another process (an app extension sharing the access group) is read
    /// at the next refresh, which a 401 starts. Every ``write(_:)`` and ``clear()`` starts a new
    /// session; ``replace(_:with:)`` is atomic with both within the process. Two first writes
    /// that race (a sign-in and a refresh, two processes) both succeed, and the last one wins.
    ///
    /// - **Accessibility**: the item's class is set on every write, so an item made with another
    ///   one moves to ``accessibility`` at its next write. On macOS it applies only with
    ///   `usesDataProtectionKeychain`; the file keychain ignores it, so it is not sent there.
    /// - **The data protection keychain on macOS**: with `usesDataProtectionKeychain`, the item
    ///   lives in the keychain iOS uses, where the accessibility holds and a re-signed build
    ///   reads it without a password prompt. It needs a signed program with a
    ///   `keychain-access-groups` or application identifier entitlement: an unsigned
    ///   command-line tool gets `errSecMissingEntitlement`, reported as `tokenStorage` with a
    ///   message that says so. On iOS, tvOS, watchOS and visionOS it is the only keychain.
    ///
    /// A locked device (or a launch in the background before the first unlock) makes the
    /// item unreadable for a while: that throws `tokenStorageUnavailable`, whose message says
    /// to try again once the device is unlocked; the session and the stored tokens are kept.
    /// Any other keychain failure, or an item that does not hold valid tokens, throws
    /// `tokenStorage` with a message that names the item and the `OSStatus`.
    public final class KeychainTokenStorage: TokenStorage, LedgerKeepingTokenStorage {
        /// When the item can be read (`kSecAttrAccessible`).
        public struct Accessibility: Hashable, Sendable {
            let level: KeychainAccessibility

            /// While unlocked, on a device with a passcode; never restored to another device.
            public static let whenPasscodeSetThisDeviceOnly = Self(level: .whenPasscodeSetThisDeviceOnly)
            /// While unlocked; never restored to another device.
            public static let whenUnlockedThisDeviceOnly = Self(level: .whenUnlockedThisDeviceOnly)
            /// While unlocked.
            public static let whenUnlocked = Self(level: .whenUnlocked)
            /// From the first unlock after a restart (background refreshes); never restored to
            /// another device. The default.
            public static let afterFirstUnlockThisDeviceOnly = Self(level: .afterFirstUnlockThisDeviceOnly)
            /// From the first unlock after a restart.
            public static let afterFirstUnlock = Self(level: .afterFirstUnlock)
        }

        /// The item's service name.
        public let service: String
        /// The item's account name.
        public let account: String
        /// The keychain access group the item belongs to, if not the app's default one.
        public let accessGroup: String?
        /// When the item can be read.
        public let accessibility: Accessibility
        /// Whether the item is in the data protection keychain on macOS.
        public let usesDataProtectionKeychain: Bool
        private let store: KeychainTokenStore

        /// Creates a storage for the item identified by `service` and `account`.
        ///
        /// - Parameters:
        ///   - service: The item's service name.
        ///   - account: The item's account name.
        ///   - accessGroup: The keychain access group to keep the item in (to share it with an
        ///     app extension); `nil` for the app's default. Used by the data protection keychain
        ///     only.
        ///   - accessibility: When the item can be read; set on every write.
        ///   - usesDataProtectionKeychain: On macOS, whether the item is in the data protection
        ///     keychain (a signed program with a keychain entitlement only) rather than the file
        ///     keychain. Elsewhere it is the only keychain, whatever this says.
        public init(
            service: String, account: String = "tokens", accessGroup: String? = nil,
            accessibility: Accessibility = .afterFirstUnlockThisDeviceOnly,
            usesDataProtectionKeychain: Bool = false
        ) {
            self.service = service
            self.account = account
            self.accessGroup = accessGroup
            self.accessibility = accessibility
            self.usesDataProtectionKeychain = usesDataProtectionKeychain
            #if os(macOS)
                let dataProtection = usesDataProtectionKeychain
            #else
                let dataProtection = true
            #endif
            self.store = KeychainTokenStore(
                query: KeychainQuery(
                    service: service, account: account, accessGroup: accessGroup,
                    accessibility: accessibility.level, usesDataProtectionKeychain: dataProtection),
                items: SecItemKeychain.shared)
        }

        var ledger: TokenLedger { store.ledger }

        /// The stored pair, read from the keychain.
        public func read() async throws -> TokenPair? {
            try await store.read()
        }

        /// Replaces the stored pair, as a new session.
        public func write(_ tokens: TokenPair) async throws {
            try await store.write(tokens)
        }

        /// Removes the stored pair, ending the session.
        public func clear() async throws {
            try await store.clear()
        }

        /// Replaces the stored pair only if it is still `expected`.
        ///
        /// - Parameters:
        ///   - expected: The pair the change was computed from.
        ///   - replacement: The new pair, or `nil` to delete the item.
        /// - Returns: Whether the item held `expected` and was changed.
        public func replace(_ expected: TokenPair, with replacement: TokenPair?) async throws -> Bool {
            try await store.replace(expected, with: replacement, inSession: nil)
        }

        func replace(_ expected: TokenPair, with replacement: TokenPair?, inSession generation: UInt64?)
            async throws -> Bool
        {
            try await store.replace(expected, with: replacement, inSession: generation)
        }
    }
#endif
