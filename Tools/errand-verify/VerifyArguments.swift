import Errand
import ErrandReplay
import Foundation

/// The command line of `errand-verify`, parsed by hand: the package takes no dependencies.
struct VerifyArguments {
    /// A command line that cannot be run, with the reason shown to the user.
    struct UsageError: Error {
        let message: String
    }

    var cassette: URL?
    var options = CassetteVerifier.Options()
    var failOn = VerificationReport.Category.breakingByDefault
    var showsHelp = false
    /// Replacements in each URL's path and query, in order.
    var rewrites: [(from: String, to: String)] = []

    static let usage = """
        USAGE: errand-verify <cassette.har> [--base-url <url>] [options]

        Sends the cassette's recorded requests to a live server and reports how the answers
        differ from the recordings: status, named headers, and the shape of JSON bodies (keys
        added or missing, types changed, null where a value was). Nothing is written.

        OPTIONS:
          --base-url <url>         Send to this scheme, host and port instead of the recorded
                                   ones; paths and queries are kept. When the URL sent
                                   (after --rewrite too) is at another origin,
                                   the recorded credentials stay behind: headers and query
                                   items such as Authorization, Cookie, X-API-Key, api_key and
                                   key, URL user info, and the body's secret values (the
                                   report names them).
          --rewrite <from> <to>    Replace <from> with <to> in each URL's path and query
                                   (repeatable, in order), such as --rewrite /v1/ /v2/.
          --header <name>          Compare this response header's value (repeatable).
          --ignore <path>          Leave this JSON path out of the comparison (repeatable),
                                   such as origin, headers.X-Amzn-Trace-Id, items[*].nonce.
          --compare-bodies         Compare bodies that are not JSON byte for byte.
          --allow-unsafe-methods   Send every entry, whatever its method. Without it, only
                                   GET, HEAD and OPTIONS are sent; POST, PUT, PATCH, DELETE
                                   and other methods may change the server's state and are
                                   reported as skipped.
          --send-entry <n[,n...]>  Send these entries (index from 0) although their method
                                   is not safe.
          --set-header <name: value>
                                   Set this header on every request, in place of a recorded
                                   one, such as a staging token where the cassette's is
                                   redacted or withheld (repeatable).
          --fail-on <list|all>     The changes that fail the run, from added, missing, type,
                                   null, status, header, body, failure; default all but added.
          --timeout <seconds>      The deadline of each request; 30 by default.
          -h, --help               Show this help.

        EXIT STATUS: 0 no breaking change, 1 a breaking change, 2 a usage or cassette error.
        """

    /// Parses the arguments after the program's name.
    init(_ arguments: [String]) throws(UsageError) {
        options.timeout = 30
        var rest = arguments[...]
        while let argument = rest.popFirst() {
            func value() throws(UsageError) -> String {
                guard let next = rest.popFirst() else {
                    throw UsageError(message: "\(EscapedText.line(argument)) needs a value.")
                }
                return next
            }
            switch argument {
            case "-h", "--help": showsHelp = true
            case "--base-url":
                let text = try value()
                guard let url = URL(string: text), url.scheme != nil, url.host != nil else {
                    throw UsageError(
                        message: "--base-url \(EscapedText.line(text)) is not a URL with a scheme and a host."
                    )
                }
                options.baseURL = url
            case "--rewrite":
                let from = try value()
                guard !from.isEmpty else { throw UsageError(message: "--rewrite needs a text to replace.") }
                rewrites.append((from, try value()))
            case "--header": options.headers.insert(try value())
            case "--ignore": options.ignoredBodyPaths.insert(try value())
            case "--compare-bodies": options.comparesOtherBodies = true
            case "--allow-unsafe-methods": options.allowsUnsafeMethods = true
            case "--send-entry":
                for item in try value().split(separator: ",") {
                    guard let index = Int(item.trimmingCharacters(in: .whitespaces)), index >= 0 else {
                        throw UsageError(
                            message:
                                "--send-entry takes entry numbers from 0, not \"\(EscapedText.line(item))\".")
                    }
                    options.allowsUnsafeEntries.insert(index)
                }
            case "--set-header":
                let text = try value()
                guard let colon = text.firstIndex(of: ":"), colon > text.startIndex else {
                    throw UsageError(
                        message: "--set-header takes \"Name: value\", not \"\(EscapedText.line(text))\".")
                }
                options.setHeaders.add(
                    String(text[..<colon]),
                    text[text.index(after: colon)...].trimmingCharacters(in: .whitespaces))
            case "--fail-on": failOn = try Self.categories(try value())
            case "--timeout":
                let text = try value()
                guard let seconds = TimeInterval(text), seconds > 0, seconds.isFinite else {
                    throw UsageError(
                        message:
                            "--timeout takes a positive number of seconds, not \"\(EscapedText.line(text))\"."
                    )
                }
                options.timeout = seconds
            default:
                guard !argument.hasPrefix("-") else {
                    throw UsageError(message: "Unknown option \(EscapedText.line(argument)).")
                }
                guard cassette == nil else {
                    throw UsageError(
                        message: "One cassette at a time; \"\(EscapedText.line(argument))\" is a second one.")
                }
                cassette = URL(fileURLWithPath: argument)
            }
        }
        if cassette == nil, !showsHelp { throw UsageError(message: "Name the cassette to verify.") }
        if !rewrites.isEmpty {
            let rewrites = rewrites
            options.mapRequest = { _, request in
                var request = request
                request.path = Self.rewriting(request.path, with: rewrites)
                return request
            }
        }
    }

    /// `url` with the replacements made in its path and query, never in its scheme and host.
    static func rewriting(_ url: String, with rewrites: [(from: String, to: String)]) -> String {
        let authority = url.range(of: "://").map { url[$0.upperBound...].firstIndex { "/?#".contains($0) } }
        let start = authority.flatMap { $0 } ?? url.startIndex
        let rest = rewrites.reduce(String(url[start...])) { text, rewrite in
            text.replacingOccurrences(of: rewrite.from, with: rewrite.to)
        }
        return String(url[..<start]) + rest
    }

    /// The categories of a `--fail-on` list.
    private static func categories(_ list: String) throws(UsageError) -> Set<VerificationReport.Category> {
        if list == "all" { return Set(VerificationReport.Category.allCases) }
        var categories: Set<VerificationReport.Category> = []
        for name in list.split(separator: ",") {
            let trimmed = name.trimmingCharacters(in: .whitespaces)
            guard let category = VerificationReport.Category(rawValue: trimmed) else {
                let known = VerificationReport.Category.allCases.map(\.rawValue).joined(separator: ", ")
                throw UsageError(
                    message:
                        "--fail-on: unknown change \"\(EscapedText.line(trimmed))\"; use \(known) or all.")
            }
            categories.insert(category)
        }
        return categories
    }
}
