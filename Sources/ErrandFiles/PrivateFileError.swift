import Errand
import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Why ``PrivateFile`` could not make, write, read or remove a file.
///
/// Its owner wraps it in the module's own error (`NetworkError`, `HARError`), naming the file.
package struct PrivateFileError: Error, CustomStringConvertible {
    /// What went wrong.
    package enum Problem: Sendable, Equatable {
        /// A missing folder could not be made.
        case cannotCreateFolder
        /// The new bytes could not be written to their temporary file.
        case cannotWrite
        /// The temporary file could not take the file's place.
        case cannotReplace
        /// The file could not be opened or read.
        case cannotRead
        /// The file could not be deleted.
        case cannotRemove
        /// A folder, FIFO, socket or device is where the file should be.
        case notARegularFile
        /// The file holds more bytes than its reader allows; none were read.
        case tooLarge(size: Int, limit: Int)
    }

    /// What went wrong.
    package let problem: Problem
    /// The path it went wrong at.
    package let path: String
    /// The system's reason (`strerror`), when a system call failed.
    package let systemReason: String?
    /// The error that stopped the write, for one thrown by a caller's check.
    package let underlyingError: (any Error)?

    init(_ problem: Problem, path: String, code: Int32? = nil, underlyingError: (any Error)? = nil) {
        self.problem = problem
        self.path = path
        self.systemReason = code.map { String(cString: strerror($0)) }
        self.underlyingError = underlyingError
    }

    /// What went wrong, and why: `the file cannot be written (No space left on device)`.
    package var reason: String {
        var text: String
        switch problem {
        case .cannotCreateFolder: text = "the folder cannot be created"
        case .cannotWrite: text = "the file cannot be written"
        case .cannotReplace: text = "the new file cannot replace the old one"
        case .cannotRead: text = "the file cannot be read"
        case .cannotRemove: text = "the file cannot be deleted"
        case .notARegularFile: text = "it is not a regular file"
        case .tooLarge(let size, let limit): text = "it holds \(size) bytes, over the \(limit) allowed"
        }
        if let systemReason { text += " (\(systemReason))" }
        if let underlyingError { text += " (\(underlyingError))" }
        return text
    }

    /// The path and the reason, escaped to one line.
    package var description: String {
        EscapedText.line("\(path): \(reason)")
    }
}
