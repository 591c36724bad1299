import Errand
import Foundation

/// The Security framework's `OSStatus` codes that the keychain storage tells apart, as `Int32`
/// so that its decisions compile on every platform. The values are Apple's (`SecBase.h`); a
/// test on Apple platforms compares them with the framework's constants.
enum KeychainStatus {
    /// `errSecSuccess`.
    static let success: Int32 = 0
    /// `errSecUserCanceled`: the person cancelled the keychain's prompt.
    static let userCanceled: Int32 = -128
    /// `errSecNotAvailable`: no keychain is available.
    static let notAvailable: Int32 = -25291
    /// `errSecAuthFailed`: the keychain refused the credentials it asked for.
    static let authFailed: Int32 = -25293
    /// `errSecDuplicateItem`: an add found the item already there.
    static let duplicateItem: Int32 = -25299
    /// `errSecItemNotFound`.
    static let itemNotFound: Int32 = -25300
    /// `errSecInteractionNotAllowed`: the device is locked, or not yet unlocked since it started.
    static let interactionNotAllowed: Int32 = -25308
    /// `errSecMissingEntitlement`: the process may not use the data protection keychain.
    static let missingEntitlement: Int32 = -34018

    /// The constant's name for the codes above, for messages: `errSecItemNotFound`.
    static func name(of status: Int32) -> String? {
        switch status {
        case success: "errSecSuccess"
        case userCanceled: "errSecUserCanceled"
        case notAvailable: "errSecNotAvailable"
        case authFailed: "errSecAuthFailed"
        case duplicateItem: "errSecDuplicateItem"
        case itemNotFound: "errSecItemNotFound"
        case interactionNotAllowed: "errSecInteractionNotAllowed"
        case missingEntitlement: "errSecMissingEntitlement"
        default: nil
        }
    }

    /// The error for `status`, answered when the item at `place` was being `action` (`read`,
    /// `written`, `deleted`).
    ///
    /// Each says what an app can do about it, and only a broken item asks to sign in again: a
    /// locked device or a cancelled prompt is temporary (`tokenStorageUnavailable`,
    /// the tokens are kept), and a missing entitlement is the app's build, which signing in
    /// again does not change. The message names the item and the status, never the tokens.
    static func error(_ status: Int32, place: String, action: String) -> NetworkError {
        let named = name(of: status).map { "OSStatus \(status), \($0)" } ?? "OSStatus \(status)"
        let cause = NSError(domain: NSOSStatusErrorDomain, code: Int(status))
        switch status {
        case interactionNotAllowed:
            return NetworkError(
                code: .tokenStorageUnavailable,
                message: "The keychain is temporarily unavailable: \(place) could not be \(action) "
                    + "(\(named)) because the device is locked, or has not been unlocked since it "
                    + "started (an app launched in the background). The stored sign-in is kept: try "
                    + "again after the device is unlocked.",
                underlyingError: cause)
        case userCanceled:
            return NetworkError(
                code: .tokenStorageUnavailable,
                message: "The keychain is temporarily unavailable: \(place) could not be \(action) "
                    + "(\(named)) because its access prompt was cancelled. The stored sign-in is "
                    + "kept: try again and allow the access.",
                underlyingError: cause)
        case missingEntitlement:
            return NetworkError(
                code: .tokenStorage,
                message: "The token storage failed: \(place) could not be \(action) (\(named)): the "
                    + "data protection keychain (`usesDataProtectionKeychain`, an access group) "
                    + "needs a signed process with a `keychain-access-groups` or application "
                    + "identifier entitlement, and an unsigned command-line tool always gets this "
                    + "error. Sign the program with such an entitlement, or use the macOS file "
                    + "keychain (`usesDataProtectionKeychain: false`); signing in again does not help.",
                underlyingError: cause)
        default:
            return TokenStorageCoding.failure("\(place) could not be \(action) (\(named))", cause: cause)
        }
    }
}
