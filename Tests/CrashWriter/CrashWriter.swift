import Errand
import ErrandPolicies
import ErrandReplay
import Foundation

// Writes, round after round until it is killed, version N of three files in the folder given as
// the only argument: a cassette (HAR through ErrandReplay's writer), a token file
// (FileTokenStorage) and a disk cache entry (DiskCacheStore), printing "ready <file> N" after
// each. The crash
// test kills it at random moments and checks that each file is still one whole version.
//
// Version N's content comes from `CrashVersion`, whose copy in the crash test must agree.

/// What version `number` of each file holds; the crash test has the same definitions.
enum CrashVersion {
    /// The body text of version `number`: its number, then a run of one letter, of varying size.
    static func text(_ number: Int) -> String {
        let size = 200 + (number &* 7_919) % 16_000
        let letter = Character(UnicodeScalar(UInt8(97 + number % 26)))
        return "version \(number) " + String(repeating: letter, count: size)
    }

    /// The tokens of version `number`.
    static func tokens(_ number: Int) -> TokenPair {
        TokenPair(
            accessToken: "access-\(number)-" + String(text(number).suffix(number % 3_000)),
            refreshToken: "refresh-\(number)", expiresAt: Date(timeIntervalSince1970: Double(number)))
    }

    static let cacheKey = "GET https://crash.example/cached"
    static let url = URL(string: "https://crash.example/cassette")
}

@main
struct CrashWriter {
    static func main() async throws {
        guard CommandLine.arguments.count == 2 else {
            FileHandle.standardError.write(Data("usage: ErrandCrashWriter <folder>\n".utf8))
            exit(2)
        }
        let folder = URL(fileURLWithPath: CommandLine.arguments[1])
        let tokens = FileTokenStorage(url: folder.appending(path: "tokens.json"))
        let cache = DiskCacheStore(directory: folder.appending(path: "cache"))
        var number = 0
        while true {
            number += 1
            try cassette(number).write(to: folder.appending(path: "cassette.har"))
            ready("cassette", number)
            try await tokens.write(CrashVersion.tokens(number))
            ready("tokens", number)
            cache.store([try cachedResponse(number)], for: CrashVersion.cacheKey)
            ready("cache", number)
        }
    }

    /// Tells the test that a file is written, so that it can kill during the next one.
    static func ready(_ file: String, _ number: Int) {
        FileHandle.standardOutput.write(Data("ready \(file) \(number)\n".utf8))
    }

    static func cassette(_ number: Int) throws -> HAR {
        let request = RequestData.get("https://crash.example/cassette")
        let response = NetworkResponse(
            statusCode: 200, headers: ["Content-Type": "text/plain"],
            body: Data(CrashVersion.text(number).utf8),
            url: CrashVersion.url, request: request)
        let recording = try Recording(request: request, baseURL: nil, response: response)
        return HAR(creator: HAR.Creator(name: "ErrandCrashWriter", version: "1"), entries: [recording.entry])
    }

    /// A stored response, made through its `Codable` form: the store's own shape on disk.
    static func cachedResponse(_ number: Int) throws -> CachedResponse {
        let body = Data(CrashVersion.text(number).utf8).base64EncodedString()
        let json = """
            {"key":"\(CrashVersion.cacheKey)","method":"GET","statusCode":200,
             "headers":[["Content-Type","text/plain"],["Cache-Control","max-age=60"]],
             "body":"\(body)","url":"https://crash.example/cached","requestTime":\(number),
             "responseTime":\(number),"varyingRequestHeaders":{}}
            """
        return try JSONDecoder().decode(CachedResponse.self, from: Data(json.utf8))
    }
}
