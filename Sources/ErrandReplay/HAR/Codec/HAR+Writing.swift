import Errand
import ErrandFiles
import Foundation

extension HAR {
    /// The bytes of this archive as a strict, deterministic HAR 1.2 file.
    ///
    /// Every field HAR 1.2 requires is written, with defaults where the archive has none
    /// (`cache: {}`, `-1` for timings that did not apply). Keys follow the order of the HAR
    /// 1.2 specification, entries keep their recorded order, the text is pretty-printed with
    /// two-space indents, dates are UTC with millisecond precision (`…T12:00:00.000Z`), and
    /// bodies are text when they are UTF-8 text and base64 with `"encoding": "base64"`
    /// otherwise. The same archive always gives the same bytes, and reading them back and
    /// writing again gives the same bytes once more.
    ///
    /// Values redacted by name are also hidden where they are echoed elsewhere in the archive,
    /// in plain, JSON-escaped or percent-encoded text (see ``Redaction``).
    ///
    /// - Parameter redaction: What to hide before writing; ``Redaction/default`` hides
    ///   credentials and cookies. Pass ``Redaction/none`` to write everything.
    /// - Returns: The UTF-8 bytes of the file, ending in a newline.
    /// - Throws: ``HARError`` with ``HARError/Code/unencodableValue`` for a value JSON cannot
    ///   hold, such as an infinite `time`, naming its path.
    public func encoded(redaction: Redaction = .default) throws(HARError) -> Data {
        var redactor = HARRedactor(redaction)
        let data = try HARJSONSerializer.serialize(redactor.redact(self).harJSON)
        return HARSecretScan.clean(data, secrets: redactor.secrets, placeholder: redaction.placeholder).data
    }

    /// Writes this archive to a file atomically, as ``encoded(redaction:)`` gives it.
    ///
    /// The bytes go to a temporary file in the same folder, which is flushed and then renamed
    /// over the destination, so a failed or interrupted write leaves any previous file whole.
    /// The file is readable by its owner only (mode 0600), and missing folders are created with
    /// mode 0700, whatever the process's umask; folders already there are left as they are.
    ///
    /// - Parameters:
    ///   - url: Where to write.
    ///   - redaction: What to hide before writing; credentials and cookies by default.
    /// - Throws: ``HARError`` with ``HARError/Code/fileUnwritable`` when the file cannot be
    ///   written, or any error of ``encoded(redaction:)``; the error names the file.
    public func write(to url: URL, redaction: Redaction = .default) throws(HARError) {
        let data: Data
        do {
            data = try encoded(redaction: redaction)
        } catch {
            var located = error
            located.file = url
            throw located
        }
        try HARFileWriter.write(data, to: url)
    }
}

/// Writes cassettes and flight recordings through Errand's one private-file writer.
enum HARFileWriter {
    /// Writes `data` to `url` atomically, mode 0600 in folders made 0700, whatever the umask.
    ///
    /// The temporary files earlier writes of `url` left when they were cut short are deleted.
    ///
    /// - Parameters:
    ///   - data: The bytes to write.
    ///   - url: The destination.
    ///   - beforeReplacing: Called with the temporary file once it is complete and flushed,
    ///     just before it replaces the destination; a test looks at the files there.
    /// - Throws: ``HARError`` with ``HARError/Code/fileUnwritable``, naming the file, when it
    ///   cannot be written; any previous file is then whole.
    static func write(
        _ data: Data, to url: URL, beforeReplacing: (_ temporary: URL) throws -> Void = { _ in }
    ) throws(HARError) {
        do {
            try PrivateFile.write(data, to: url, beforeReplacing: beforeReplacing)
        } catch {
            throw HARError(code: .fileUnwritable, file: url, reason: error.reason, underlyingError: error)
        }
    }
}
