import Foundation
import Testing

@testable import Errand
@testable import ErrandPolicies

#if canImport(Security)
    import Security
#endif

/// What a keychain failure becomes: a locked device is temporary and keeps the sign-in, a
/// missing entitlement says what the build lacks, and anything else names the item and the
/// status, never the tokens.
@Suite struct KeychainErrorTests {
    typealias Store = KeychainTokenStoreTests
    static let tokens = TokenPair(accessToken: "secret-access", refreshToken: "secret-refresh")

    enum Operation: String, CaseIterable, Sendable {
        case read, write, clear, replace

        func run(on store: KeychainTokenStore) async throws {
            switch self {
            case .read: _ = try await store.read()
            case .write: try await store.write(KeychainErrorTests.tokens)
            case .clear: try await store.clear()
            case .replace: _ = try await store.replace(KeychainErrorTests.tokens, with: nil)
            }
        }
    }

    /// A store over an item that holds `tokens`, and its keychain.
    static func storedItem() throws -> (KeychainTokenStore, FakeKeychain) {
        let keychain = FakeKeychain()
        try keychain.putBehindTheStoragesBack(tokens, for: Store.query())
        return (KeychainTokenStore(query: Store.query(), items: keychain), keychain)
    }

    // MARK: A locked device

    @Test(arguments: Operation.allCases)
    func aLockedDeviceIsTemporaryAndKeepsTheSignIn(_ operation: Operation) async throws {
        // Given a stored item on a device that is locked
        let (store, keychain) = try Self.storedItem()
        let generation = store.ledger.generation
        keychain.isLocked = true

        // When the storage is used
        let error = try await #require(throws: NetworkError.self) { try await operation.run(on: store) }

        // Then the error says the keychain is unavailable for now, to try again after an
        // unlock, and does not ask for a sign-in
        #expect(error.code == .tokenStorageUnavailable)
        #expect(error.message.contains("temporarily unavailable"))
        #expect(error.message.contains("try again after the device is unlocked"))
        #expect(error.message.contains("OSStatus -25308, errSecInteractionNotAllowed"))
        #expect(error.message.contains("the keychain item api.example.com/tokens"))
        #expect(!error.message.lowercased().contains("sign in again"))
        #expect(!error.userMessage.lowercased().contains("sign in"))
        // ... the session goes on and the tokens are still there once it is unlocked
        #expect(store.ledger.generation == generation)
        keychain.isLocked = false
        #expect(try await store.read() == Self.tokens)
    }

    @Test func aCancelledKeychainPromptIsTemporaryToo() async throws {
        let (store, keychain) = try Self.storedItem()
        keychain.answer(.copy, with: KeychainStatus.userCanceled)

        let error = try await #require(throws: NetworkError.self) { try await store.read() }

        #expect(error.code == .tokenStorageUnavailable)
        #expect(error.message.contains("OSStatus -128, errSecUserCanceled"))
        #expect(!error.message.lowercased().contains("sign in again"))
    }

    // MARK: A missing entitlement

    @Test(arguments: [Operation.read, .write, .clear])
    func aMissingEntitlementSaysWhatTheProgramLacks(_ operation: Operation) async throws {
        // Given a program without a keychain entitlement (an unsigned command-line tool)
        let (store, keychain) = try Self.storedItem()
        for call in [FakeKeychain.Call.copy, .update, .add, .delete] {
            keychain.answer(call, with: KeychainStatus.missingEntitlement)
        }

        // When the storage is used
        let error = try await #require(throws: NetworkError.self) { try await operation.run(on: store) }

        // Then the message names the status, the entitlement and the way out, not a sign-in
        #expect(error.code == .tokenStorage)
        #expect(error.message.contains("OSStatus -34018, errSecMissingEntitlement"))
        #expect(error.message.contains("unsigned command-line tool"))
        #expect(error.message.contains("keychain-access-groups"))
        #expect(error.message.contains("usesDataProtectionKeychain: false"))
        #expect(!error.message.contains("Clear the storage and sign in again"))
    }

    // MARK: Any other status

    @Test(arguments: [
        KeychainStatus.authFailed, KeychainStatus.notAvailable, -50, -67671, 1, Int32.min, Int32.max,
    ])
    func anyOtherStatusNamesTheItemAndTheStatusAndNothingSecret(_ status: Int32) async throws {
        // Given a keychain that answers `status` to everything
        let (store, keychain) = try Self.storedItem()
        for call in [FakeKeychain.Call.copy, .update, .add, .delete] { keychain.answer(call, with: status) }

        for operation in [Operation.read, .write, .clear] {
            // When the storage is used
            let error = try await #require(throws: NetworkError.self) { try await operation.run(on: store) }

            // Then it is a tokenStorage error naming the item and the status, without the tokens
            #expect(error.code == .tokenStorage)
            #expect(error.message.contains("the keychain item api.example.com/tokens"))
            #expect(error.message.contains("OSStatus \(status)"))
            #expect((error.underlyingError as? NSError)?.code == Int(status))
            for text in [error.message, error.description] {
                #expect(!text.contains("secret-access") && !text.contains("secret-refresh"))
            }
        }
    }

    @Test func aKnownStatusIsNamedByItsConstant() async throws {
        let (store, keychain) = try Self.storedItem()
        keychain.answer(.copy, with: KeychainStatus.authFailed)

        let error = try await #require(throws: NetworkError.self) { try await store.read() }

        #expect(error.message.contains("(OSStatus -25293, errSecAuthFailed)"))
    }

    @Test func anItemWithoutDataOrWithoutValidTokensIsABrokenItem() async throws {
        let keychain = FakeKeychain()
        let store = KeychainTokenStore(query: Store.query(), items: keychain)
        keychain.shelf.items.withLock {
            $0[Store.query().key] = FakeKeychain.Item(data: Data("not json".utf8), accessibility: nil)
        }

        let error = try await #require(throws: NetworkError.self) { try await store.read() }

        #expect(error.code == .tokenStorage)
        #expect(error.message.contains("the keychain item api.example.com/tokens does not hold valid tokens"))
    }

    @Test func hostileItemNamesStayOnOneEscapedLine() async throws {
        // Given an item whose names hold line breaks, a NUL, escapes and non-ASCII text
        let keychain = FakeKeychain()
        let service = "api\r\nX-Injected: 1\u{0}\u{1B}[31m\u{1B}]8;;http://evil\u{07}"
        let query = Store.query(service: service, account: "ünïcødé\n", accessGroup: "group\u{1B}[2J")
        let store = KeychainTokenStore(query: query, items: keychain)
        keychain.answer(.copy, with: KeychainStatus.authFailed)

        // When it fails
        let error = try await #require(throws: NetworkError.self) { try await store.read() }

        // Then its message is one line, every control character escaped, and no line of its
        // description starts where the library's own lines do not
        #expect(!error.message.contains("\n") && !error.message.contains("\r"))
        for text in [error.message, error.description] {
            #expect(!text.contains("\u{1B}") && !text.contains("\u{0}") && !text.contains("\u{7}"))
            #expect(text.contains("ünïcødé\\n"))
        }
        let lines = error.description.split(separator: "\n")
        #expect(lines.dropFirst().allSatisfy { $0.hasPrefix("  ") })
        #expect(!error.description.contains("\nX-Injected"))
    }

    #if canImport(Security)
        @Test func theStatusCodesAreTheSecurityFrameworks() {
            #expect(KeychainStatus.success == errSecSuccess)
            #expect(KeychainStatus.userCanceled == errSecUserCanceled)
            #expect(KeychainStatus.notAvailable == errSecNotAvailable)
            #expect(KeychainStatus.authFailed == errSecAuthFailed)
            #expect(KeychainStatus.duplicateItem == errSecDuplicateItem)
            #expect(KeychainStatus.itemNotFound == errSecItemNotFound)
            #expect(KeychainStatus.interactionNotAllowed == errSecInteractionNotAllowed)
            #expect(KeychainStatus.missingEntitlement == errSecMissingEntitlement)
        }
    #endif
}
