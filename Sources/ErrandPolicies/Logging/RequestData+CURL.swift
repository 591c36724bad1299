import Errand
import Foundation

extension RequestData {
    /// A `curl` command line that sends this request as a dispatcher with `baseURL` would: the
    /// same method, URL, headers and body bytes, ready to paste into `bash` or `zsh` (or any POSIX
    /// `sh`, for a command without control characters).
    ///
    /// Every argument is quoted for the shell: in single quotes, or, when it holds a control
    /// character (CR, LF, tab, ESC, a C1 control, a bidirectional override…), in ANSI-C quotes
    /// (`$'…'`, which bash, zsh and ksh read) with each such character written as an escape, so
    /// that nothing pasted can end the command, run a terminal escape or hide what it does. A
    /// body that is UTF-8 text without NUL goes in `--data-raw '…'`, which curl sends as written
    /// (a leading `@` is not a file to read); any other body is written by `printf '%b'` and piped
    /// to `--data-binary @-`, so every byte arrives as it is. Form and multipart bodies are the
    /// bytes Errand sends, with their `Content-Type` (and its boundary), never `-F` fields. No
    /// argument makes curl read a local file: a header field starting with `@` is refused.
    ///
    /// Redacted, every credential the vocabulary names is replaced wherever the URL has it: in
    /// the path's query, the query items and the base URL's query, and the user info of the
    /// path or the base URL (`https://%3Credacted%3E@host/…`), as well as in headers and body.
    ///
    /// ```swift
    /// let command = try request.curlCommand(baseURL: URL(string: "https://api.example.com"))
    /// // curl -X POST 'https://api.example.com/login' -H 'Authorization: <redacted>' …
    /// ```
    ///
    /// - Parameters:
    ///   - baseURL: The base URL a relative path is resolved against, as by the dispatcher.
    ///   - redacted: Whether secret values are replaced by the placeholder; `true` by default,
    ///     so a command can be pasted into a ticket. Pass `false` to get one that authenticates.
    ///   - vocabulary: The secret names; `SecretVocabulary.default` unless given.
    /// - Returns: The command line.
    /// - Throws: `NetworkError` with code `invalidRequest` when the URL cannot be built (see
    ///   `RequestData.url(relativeTo:)`), a header name starts with `@` (which `-H` reads as a
    ///   file to send) or the body could not be encoded.
    public func curlCommand(
        baseURL: URL?, redacted: Bool = true, vocabulary: SecretVocabulary = .default
    ) throws -> String {
        let secrets = redacted ? vocabulary : .none
        // Redacted once resolved, so that the base URL's query and user info are too.
        let url = secrets.redactingQuery(
            ofURL: try resolvedURL(relativeTo: baseURL).absoluteString, escapingPlaceholder: true)
        var arguments = ["curl"]
        switch method {
        case .get where body == nil: break
        case .head: arguments.append("--head")
        default: arguments += ["-X", ShellQuoting.quoted(method.rawValue)]
        }
        arguments.append(ShellQuoting.quoted(url))
        for header in secrets.redacted(effectiveHeaders) {
            // `Name;` is how curl sends a header with an empty value.
            let field = header.value.isEmpty ? "\(header.name);" : "\(header.name): \(header.value)"
            // `-H @path` sends the lines of a local file; `@` is never the start of a valid name.
            guard !field.hasPrefix("@") else {
                throw NetworkError(
                    code: .invalidRequest,
                    message: "The header name \(EscapedText.line(header.name)) is not a valid field name: "
                        + "it starts with \"@\", which curl reads as a file to send.",
                    request: self)
            }
            arguments += ["-H", ShellQuoting.quoted(field)]
        }
        guard let body else { return arguments.joined(separator: " ") }
        guard let bytes = body.data else {
            throw NetworkError(
                code: .invalidRequest,
                message: "The body could not be encoded: \(body.encodingFailure ?? "unknown reason").",
                request: self)
        }
        let data =
            secrets.redactedBody(bytes, contentType: effectiveHeaders["Content-Type"])
            ?? Data(secrets.placeholder.utf8)
        if ShellQuoting.isQuotable(data) {
            // Not `--data-binary`, which reads a body starting with `@` from that local file.
            arguments += ["--data-raw", ShellQuoting.quoted(String(decoding: data, as: UTF8.self))]
            return arguments.joined(separator: " ")
        }
        arguments += ["--data-binary", "@-"]
        return ShellQuoting.printfCommand(for: data) + " | " + arguments.joined(separator: " ")
    }
}

/// Quoting for shells (`sh`, `bash`, `zsh`), so any bytes reach a command unchanged and no
/// byte pasted into a terminal acts on it.
enum ShellQuoting {
    /// `text` as one shell word: in single quotes, each `'` written as `'\''`; in ANSI-C quotes
    /// when it holds a character that must not reach a terminal raw (see ``ansiQuoted(_:)``).
    static func quoted(_ text: String) -> String {
        if text.unicodeScalars.contains(where: EscapedText.needsEscape) { return ansiQuoted(text) }
        return "'" + text.replacingOccurrences(of: "'", with: #"'\''"#) + "'"
    }

    /// `text` as `$'…'`: `\` and `'` escaped, CR, LF and tab as `\r`, `\n`, `\t`, and every
    /// other character that ``EscapedText`` escapes as the `\xHH` escapes of its UTF-8 bytes,
    /// which the shell turns back into those bytes whatever the locale.
    static func ansiQuoted(_ text: String) -> String {
        var output = "$'"
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\\": output += #"\\"#
            case "'": output += #"\'"#
            case "\n": output += #"\n"#
            case "\r": output += #"\r"#
            case "\t": output += #"\t"#
            default:
                guard EscapedText.needsEscape(scalar) else {
                    output.unicodeScalars.append(scalar)
                    continue
                }
                for byte in String(scalar).utf8 { output += "\\x" + PercentEncoding.hex(byte) }
            }
        }
        return output + "'"
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
