import ErrandReplay
import Foundation

/// A fresh cassette location in a temporary folder, and what replay tests need around it.
struct CassetteFolder {
    let folder: TemporaryFolder
    /// The cassette file (not created).
    let cassette: URL

    init(name: String = "cassette.har") throws {
        folder = try TemporaryFolder()
        cassette = folder.url.appendingPathComponent("Cassettes/Suite/\(name)")
    }

    /// Writes `har` as the cassette, unredacted.
    func write(_ har: HAR) throws {
        try har.write(to: cassette, redaction: .none)
    }

    /// The cassette as it is on disk.
    func read() throws -> HAR {
        try HAR(contentsOf: cassette)
    }

    /// The cassette's bytes.
    func bytes() throws -> Data {
        try Data(contentsOf: cassette)
    }

    func remove() {
        folder.remove()
    }
}

/// A configuration for tests: an empty environment (no CI, no mode override), a fixed time.
func testConfiguration(_ configure: (inout ReplayDispatcher.Configuration) -> Void = { _ in })
    -> ReplayDispatcher.Configuration
{
    ReplayDispatcher.Configuration {
        $0.environment = [:]
        $0.now = { Date(timeIntervalSince1970: 1_700_000_000) }
        configure(&$0)
    }
}

/// A recorded exchange answering `answer` as text, for cassettes built in tests.
func exchange(
    _ method: String, _ url: String, body: String? = nil, contentType: String = "application/json",
    headers: [HAR.Header] = [], status: Int = 200, answer: String, extraResponseHeaders: [HAR.Header] = []
) -> HAR.Entry {
    HAR.Entry(
        startedDateTime: Date(timeIntervalSince1970: 1_700_000_000),
        time: 10,
        request: HAR.Request(
            method: method, url: url,
            headers: headers + (body == nil ? [] : [HAR.Header(name: "Content-Type", value: contentType)]),
            postData: body.map { HAR.PostData(mimeType: contentType, text: $0) }),
        response: HAR.Response(
            status: status,
            headers: [HAR.Header(name: "Content-Type", value: "text/plain")] + extraResponseHeaders,
            content: HAR.Content(body: Data(answer.utf8), mimeType: "text/plain"))
    )
}

/// An archive of the given entries.
func cassette(_ entries: [HAR.Entry]) -> HAR {
    HAR(creator: HAR.Creator(name: "test", version: "1"), entries: entries)
}
