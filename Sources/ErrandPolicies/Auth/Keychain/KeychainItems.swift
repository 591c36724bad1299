import Errand
import Foundation

/// The four keychain calls the token storage makes, one generic-password item each, answering
/// the Security framework's own `OSStatus` codes (``KeychainStatus``).
///
/// On Apple platforms ``SecItemKeychain`` makes each call one `SecItem` function; a test gives
/// an in-memory fake, so every decision of ``KeychainTokenStore`` runs on Linux too. A class,
/// because the storages of one item share a ledger per keychain object (one per process).
protocol KeychainItems: AnyObject, Sendable {
    /// The item's data (`SecItemCopyMatching`), with the status.
    func copyData(_ query: KeychainQuery) -> (status: Int32, data: Data?)
    /// Replaces the existing item's data and sets its accessibility (`SecItemUpdate`).
    func update(_ query: KeychainQuery, data: Data) -> Int32
    /// Adds the item with `data` and its accessibility (`SecItemAdd`).
    func add(_ query: KeychainQuery, data: Data) -> Int32
    /// Deletes the item (`SecItemDelete`).
    func delete(_ query: KeychainQuery) -> Int32
}

/// One keychain item as the storage asks for it, in portable values: which item, in which
/// keychain, and the accessibility it must have.
struct KeychainQuery: Hashable, Sendable {
    /// Which item: two storages of one key share one session.
    struct Key: Hashable, Sendable {
        let service: String
        let account: String
        let accessGroup: String?
        let usesDataProtectionKeychain: Bool
    }

    /// `kSecAttrService`.
    let service: String
    /// `kSecAttrAccount`.
    let account: String
    /// `kSecAttrAccessGroup`, in the data protection keychain only.
    let accessGroup: String?
    /// `kSecAttrAccessible`, sent with every add and update; `nil` in the macOS file keychain.
    let accessibility: KeychainAccessibility?
    /// `kSecUseDataProtectionKeychain`.
    let usesDataProtectionKeychain: Bool

    /// The query for an item. The access group and the accessibility belong to the data
    /// protection keychain: the macOS file keychain ignores the accessibility, and Apple
    /// documents both for the data protection keychain only, so neither is sent to it.
    init(
        service: String, account: String, accessGroup: String?, accessibility: KeychainAccessibility,
        usesDataProtectionKeychain: Bool
    ) {
        self.service = service
        self.account = account
        self.accessGroup = usesDataProtectionKeychain ? accessGroup : nil
        self.accessibility = usesDataProtectionKeychain ? accessibility : nil
        self.usesDataProtectionKeychain = usesDataProtectionKeychain
    }

    /// Which item this is.
    var key: Key {
        Key(
            service: service, account: account, accessGroup: accessGroup,
            usesDataProtectionKeychain: usesDataProtectionKeychain)
    }

    /// The item, as error messages name it: `the keychain item <service>/<account>`, each name
    /// on one line with its control characters escaped, as the app may have built it from input.
    var place: String {
        let group = accessGroup.map { " in the access group \(EscapedText.line($0))" } ?? ""
        return "the keychain item \(EscapedText.line(service))/\(EscapedText.line(account))\(group)"
    }
}

/// When the item can be read (`kSecAttrAccessible`), most restrictive first.
enum KeychainAccessibility: Hashable, Sendable, CaseIterable {
    /// Only while unlocked, only with a passcode set, never in a backup for another device.
    case whenPasscodeSetThisDeviceOnly
    /// Only while unlocked, never in a backup for another device.
    case whenUnlockedThisDeviceOnly
    /// Only while unlocked.
    case whenUnlocked
    /// From the first unlock after a restart, never in a backup for another device.
    case afterFirstUnlockThisDeviceOnly
    /// From the first unlock after a restart.
    case afterFirstUnlock
}
