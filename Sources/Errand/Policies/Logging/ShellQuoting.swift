import Foundation

/// Quoting for POSIX shells (`sh`, `bash`, `zsh`), so any bytes reach a command unchanged.
enum ShellQuoting {
    /// `text` as one shell word: in single quotes, each `'` written as `'\''`.
    static func quoted(_ text: String) -> String {
        "'" + text.replacingOccurrences(of: "'", with: #"'\''"#) + "'"
    }

    /// Whether `data` can be written inside single quotes: text without NUL, which no command
    /// argument can hold.
    static func isQuotable(_ data: Data) -> Bool {
        !data.contains(0) && String(data: data, encoding: .utf8) != nil
    }

    /// A `printf '%b' '…'` command that writes exactly `data`, for bytes that cannot be an
    /// argument (NUL, text that is not UTF-8).
    ///
    /// Printable ASCII stays as it is, `\` is doubled and `'` written as `'\''`; every other byte
    /// is a `\0ooo` octal escape, which `printf '%b'` turns back into that byte in sh and bash.
    static func printfCommand(for data: Data) -> String {
        var output = "printf '%b' '"
        for byte in data {
            switch byte {
            case UInt8(ascii: "\\"): output += #"\\"#
            case UInt8(ascii: "'"): output += #"'\''"#
            case 0x20...0x7E: output.unicodeScalars.append(Unicode.Scalar(byte))
            default:
                let octal = String(byte, radix: 8)
                output += "\\0" + String(repeating: "0", count: 3 - octal.count) + octal
            }
        }
        return output + "'"
    }
}
