import Foundation

extension RequestData {
    /// A `curl` command line that sends this request as a dispatcher with `baseURL` would: the
    /// same method, URL, headers and body bytes, ready to paste into `sh`, `bash` or `zsh`.
    ///
    /// Every argument is quoted for the shell. A body that is UTF-8 text without NUL goes in
    /// `--data-binary '…'`; any other body is written by `printf '%b'` and piped to
    /// `--data-binary @-`, so every byte arrives as it is. Form and multipart bodies are the
    /// bytes Errand sends, with their `Content-Type` (and its boundary).
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
    ///   - vocabulary: The secret names; ``SecretVocabulary/default`` unless given.
    /// - Returns: The command line.
    /// - Throws: `NetworkError` with code `invalidRequest` when the URL cannot be built (see
    ///   ``url(relativeTo:)``) or the body could not be encoded.
    public func curlCommand(
        baseURL: URL?, redacted: Bool = true, vocabulary: SecretVocabulary = .default
    ) throws -> String {
        let secrets = redacted ? vocabulary : .none
        var shown = self
        shown.path = secrets.redactingQuery(ofURL: path, escapingPlaceholder: true)
        shown.query = secrets.redacted(query)
        let url = try shown.resolvedURL(relativeTo: baseURL).absoluteString
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
            arguments += ["--data-binary", ShellQuoting.quoted(String(decoding: data, as: UTF8.self))]
            return arguments.joined(separator: " ")
        }
        arguments += ["--data-binary", "@-"]
        return ShellQuoting.printfCommand(for: data) + " | " + arguments.joined(separator: " ")
    }
}

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
