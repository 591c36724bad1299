import ErrandSync
import Foundation
import Testing

@testable import Errand
@testable import ErrandPolicies

/// The keychain storage's reads and writes, on a fake keychain that answers the real statuses:
/// two first writes that race, an item that is not there, and what each write sends.
@Suite struct KeychainTokenStoreTests {
    static let first = TokenPair(accessToken: "first-access", refreshToken: "first-refresh")
    static let second = TokenPair(accessToken: "second-access", refreshToken: "second-refresh")

    static func query(
        service: String = "api.example.com", account: String = "tokens", accessGroup: String? = nil,
        accessibility: KeychainAccessibility = .afterFirstUnlockThisDeviceOnly, dataProtection: Bool = true
    ) -> KeychainQuery {
        KeychainQuery(
            service: service, account: account, accessGroup: accessGroup, accessibility: accessibility,
            usesDataProtectionKeychain: dataProtection)
    }

    // MARK: Two first writes

    @Test func twoFirstWritesThatRaceBothSucceedAndTheLastOneWins() async throws {
        // Given two processes (an app and its extension) with no item yet
        let keychain = FakeKeychain()
        let other = keychain.anotherProcess()
        let query = Self.query()
        let signIn = KeychainTokenStore(query: query, items: keychain)
        let refresh = KeychainTokenStore(query: query, items: other)
        let otherFailure = Locked<(any Error)?>(nil)
        // ... and the other one's first write lands between this one's update and its add
        keychain.beforeNext(.add) {
            do { try refresh.writeNow(Self.second) } catch { otherFailure.withLock { $0 = error } }
        }

        // When this one writes
        try await signIn.write(Self.first)

        // Then both writes succeeded, and the one that finished last holds the item
        #expect(otherFailure.withLock { $0 } == nil)
        #expect(try await signIn.read() == Self.first)
        #expect(try await refresh.read() == Self.first)
        #expect(keychain.calls == [.update, .add, .update, .copy])
        #expect(other.calls == [.update, .add, .copy])
    }

    @Test func aWriteGivesUpAfterAFewRoundsWhenTheItemKeepsComingAndGoing() async throws {
        // Given a keychain where the item is never there to update, yet always there to add
        let keychain = FakeKeychain()
        keychain.answer(.update, with: KeychainStatus.itemNotFound)
        keychain.answer(.add, with: KeychainStatus.duplicateItem)
        let store = KeychainTokenStore(query: Self.query(), items: keychain)
        let generation = store.ledger.generation

        // When a pair is written
        let error = try await #require(throws: NetworkError.self) { try await store.write(Self.first) }

        // Then it stops after a bounded number of rounds, names the status, and starts no session
        #expect(keychain.count(.update) == KeychainTokenStore.writeAttempts)
        #expect(keychain.count(.add) == KeychainTokenStore.writeAttempts)
        #expect(error.code == .tokenStorage)
        #expect(error.message.contains("OSStatus -25299, errSecDuplicateItem"))
        #expect(store.ledger.generation == generation)
    }

    @Test func aSecondWriteUpdatesTheItemWithoutAddingIt() async throws {
        let keychain = FakeKeychain()
        let store = KeychainTokenStore(query: Self.query(), items: keychain)
        try await store.write(Self.first)

        try await store.write(Self.second)

        #expect(keychain.calls == [.update, .add, .update])
        #expect(try await store.read() == Self.second)
    }

    // MARK: No item

    @Test func noItemReadsAsNoTokensAndClearsWithoutAnError() async throws {
        // Given a keychain without the item
        let keychain = FakeKeychain()
        let store = KeychainTokenStore(query: Self.query(), items: keychain)
        let generation = store.ledger.generation

        // When it is read and cleared
        let tokens = try await store.read()
        try await store.clear()

        // Then there are no tokens, the clear succeeded and ended the session
        #expect(tokens == nil)
        #expect(keychain.calls == [.copy, .delete])
        #expect(store.ledger.generation == generation + 1)
    }

    @Test func aReplaceOfAnItemThatIsGoneChangesNothing() async throws {
        let keychain = FakeKeychain()
        let store = KeychainTokenStore(query: Self.query(), items: keychain)

        #expect(try await store.replace(Self.first, with: Self.second) == false)
        #expect(keychain.calls == [.copy])
        #expect(keychain.item(Self.query()) == nil)
    }

    // MARK: What each call carries

    @Test func theAccessibilityGoesWithTheAddAndWithEveryUpdate() async throws {
        // Given an item that an older version made with another accessibility
        let keychain = FakeKeychain()
        let older = Self.query(accessibility: .afterFirstUnlock)
        try keychain.putBehindTheStoragesBack(Self.first, for: older)
        let query = Self.query(accessibility: .whenUnlockedThisDeviceOnly)
        let store = KeychainTokenStore(query: query, items: keychain)

        // When the storage writes it
        try await store.write(Self.second)

        // Then the update carried the configured class, and the item moved to it
        #expect(keychain.queries(.update).map(\.accessibility) == [.whenUnlockedThisDeviceOnly])
        #expect(keychain.item(query)?.accessibility == .whenUnlockedThisDeviceOnly)

        // When it is cleared and written again (an add)
        try await store.clear()
        try await store.write(Self.first)

        // Then the add carried it too
        #expect(keychain.queries(.add).map(\.accessibility) == [.whenUnlockedThisDeviceOnly])
        #expect(keychain.item(query)?.accessibility == .whenUnlockedThisDeviceOnly)
    }

    @Test(arguments: KeychainAccessibility.allCases)
    func everyAccessibilityIsSentAsConfigured(_ accessibility: KeychainAccessibility) async throws {
        let keychain = FakeKeychain()
        let store = KeychainTokenStore(query: Self.query(accessibility: accessibility), items: keychain)

        try await store.write(Self.first)

        #expect(keychain.queries(.add).map(\.accessibility) == [accessibility])
    }

    @Test func theDataProtectionKeychainAndTheAccessGroupGoWithEveryCall() async throws {
        // Given a storage in the data protection keychain, in a shared access group
        let keychain = FakeKeychain()
        let query = Self.query(accessGroup: "TEAMID.com.example.shared", dataProtection: true)
        let store = KeychainTokenStore(query: query, items: keychain)

        // When it is written, read, refreshed and cleared
        try await store.write(Self.first)
        _ = try await store.read()
        _ = try await store.replace(Self.first, with: Self.second)
        try await store.clear()

        // Then every call named that keychain and that group
        let all = [.copy, .update, .add, .delete].flatMap { keychain.queries($0) }
        #expect(all.count == 6)
        #expect(
            all.allSatisfy { $0.usesDataProtectionKeychain && $0.accessGroup == "TEAMID.com.example.shared" })
    }

    @Test func theMacOSFileKeychainIsSentNeitherAccessibilityNorAccessGroup() async throws {
        // Given a storage in the macOS file keychain, which ignores both
        let keychain = FakeKeychain()
        let query = Self.query(
            accessGroup: "TEAMID.group", accessibility: .whenUnlocked, dataProtection: false)
        let store = KeychainTokenStore(query: query, items: keychain)

        // When it is written twice (an add, then an update) and read
        try await store.write(Self.first)
        try await store.write(Self.second)
        #expect(try await store.read() == Self.second)

        // Then no call carried the accessibility, the group or the data protection flag
        let all = [.copy, .update, .add].flatMap { keychain.queries($0) }
        #expect(all.count == 4)
        #expect(
            all.allSatisfy {
                $0.accessibility == nil && $0.accessGroup == nil && !$0.usesDataProtectionKeychain
            })
    }
}
