import Errand
import ErrandPolicies
import ErrandReplay
import Foundation
import Testing

/// No secret is ever written: known secret values in every place redaction covers go through the
/// logging, recording, caching and cURL paths, and every byte written (log file, cassette, cache
/// files, cURL text) is scanned for each secret in every spelling. The token file is the one
/// file that holds a token, and only its owner may read it.
@Suite struct NoSecretWrittenTests {
    /// Each secret, named for where it goes in.
    static let secrets: [String: String] = [
        "access token (Authorization: Bearer, token file)": "SECRETaccess-7f3a9c1e",
        "refresh token (token file)": "SECRETrefresh-2b8d4e6f",
        "Cookie": "SECRETcookie-9a1b2c3d",
        "X-Api-Key": "SECRETapikey-4e5f6a7b",
        "query accessToken": "SECRETquery-8c9d0e1f",
        "nested JSON client_secret": "SECRETjson-3a4b5c6d",
        "form password": "SECRETform-6e7f8a9b",
        "multipart api_key": "SECRETmultipart-1c2d3e4f",
        "Basic password (Proxy-Authorization)": "SECRETbasicpw-77aa88bb",
        "response refresh_token": "SECRETresp-5a6b7c8d",
        "Set-Cookie": "SECRETsetcookie-0e1f2a3b",
    ]

    static func secret(_ name: String) -> String { secrets[name] ?? "" }

    static let baseURL = URL(string: "https://api.example.com")

    /// One request per place the redaction covers.
    static var requests: [RequestData] {
        let access = secret("access token (Authorization: Bearer, token file)")
        let basic = Data("ada:\(secret("Basic password (Proxy-Authorization)"))".utf8).base64EncodedString()
        return [
            RequestData.get("/profile").query("accessToken", secret("query accessToken")).query("page", "1")
                .header("Authorization", "Bearer \(access)")
                .header("Cookie", "session=\(secret("Cookie"))")
                .header("X-Api-Key", secret("X-Api-Key")),
            RequestData.post("/settings")
                .body(
                    .raw(
                        Data(
                            #"{"profile":{"deep":[{"client_secret":"\#(secret("nested JSON client_secret"))"}]},"n":1}"#
                                .utf8), contentType: "application/json")),
            RequestData.post("/login").header("Proxy-Authorization", "Basic \(basic)")
                .body(.form(["user": "ada", "password": secret("form password")])),
            RequestData.post("/upload")
                .body(.multipart([.field("api_key", secret("multipart api_key")), .field("note", "hello")])),
            RequestData.post("/token").body(.form(["grant_type": "client_credentials"])),
        ]
    }

    @Test func nothingTheLibraryWritesHoldsASecret() async throws {
        // Given a stack that logs bodies to a file, records a cassette and caches on disk
        let folder = FileManager.default.temporaryDirectory.appending(
            path: "errand-secrets-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let logFile = folder.appending(path: "network.log")
        _ = FileManager.default.createFile(atPath: logFile.path, contents: nil)
        let log = try FileHandle(forWritingTo: logFile)
        let upstream = Self.server()
        let caching = CachingDispatcher(
            base: upstream, store: DiskCacheStore(directory: folder.appending(path: "cache")),
            baseURL: Self.baseURL)
        let recording = ReplayDispatcher(
            cassette: folder.appending(path: "cassettes/secrets.har"), baseURL: Self.baseURL, mode: .once,
            upstream: caching, configuration: testConfiguration())
        let stack = LoggingDispatcher(
            base: recording, sink: StreamLogSink(log), level: .body, bodyLimit: 1 << 20)
        let tokens = FileTokenStorage(url: folder.appending(path: "auth/tokens.json"))

        // When every request goes through it, is rendered as cURL, and the tokens are saved
        var curl: [String] = []
        for request in Self.requests {
            let response = try await stack.dispatch(request)
            #expect(response.statusCode == 200)
            curl.append(try request.curlCommand(baseURL: Self.baseURL))
        }
        try await tokens.write(
            TokenPair(
                accessToken: Self.secret("access token (Authorization: Bearer, token file)"),
                refreshToken: Self.secret("refresh token (token file)")))
        try log.close()

        // Then no written byte holds any secret, in any spelling, but the token file
        let written = try Self.files(in: folder).filter { $0.lastPathComponent != "tokens.json" }
        #expect(written.contains { $0.pathExtension == "har" })
        #expect(written.contains { $0.pathExtension == "cacheentry" })
        #expect(written.contains { $0.lastPathComponent == "network.log" })
        var texts = try written.map { ($0.path, try Data(contentsOf: $0)) }
        texts += curl.enumerated().map { ("cURL \($0.offset)", Data($0.element.utf8)) }
        let hits = Self.hits(in: texts)
        #expect(hits.isEmpty, "\(hits.joined(separator: "\n"))")

        // And the token file holds the tokens, readable by its owner only
        let tokenFile = folder.appending(path: "auth/tokens.json")
        let tokenHits = Self.hits(in: [("tokens.json", try Data(contentsOf: tokenFile))])
        #expect(tokenHits.count >= 2, "the scan finds what is there")
        let mode = try FileManager.default.attributesOfItem(atPath: tokenFile.path)[.posixPermissions] as? Int
        #expect(mode == 0o600)
    }

    /// Every secret spelling found in `texts`, as "where: secret as spelling".
    static func hits(in texts: [(String, Data)]) -> [String] {
        var hits: [String] = []
        for (place, data) in texts {
            let text = String(decoding: data, as: UTF8.self)
            for (name, secret) in secrets.sorted(by: { $0.key < $1.key }) {
                for spelling in SecretSpelling.spellings(of: secret) where text.contains(spelling.text) {
                    hits.append("\(place): \(name) as \(spelling.text)")
                }
            }
        }
        return hits
    }

    /// Every regular file under `folder`, hidden ones (temporary files) included.
    static func files(in folder: URL) throws -> [URL] {
        let enumerator = FileManager.default.enumerator(
            at: folder, includingPropertiesForKeys: [.isRegularFileKey])
        return (enumerator?.allObjects as? [URL] ?? []).filter {
            (try? $0.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile) == true
        }
    }

    /// A server that sets a cookie, varies on the credentials, and answers the token request.
    static func server() -> InMemoryDispatcher {
        let server = InMemoryDispatcher()
        server.stub(
            .get, "/profile",
            response: .data(
                Data(#"{"name":"ada"}"#.utf8), contentType: "application/json",
                headers: [
                    "Cache-Control": "public, max-age=600", "Vary": "Authorization, Cookie, X-Api-Key",
                    "Set-Cookie": "sid=\(secret("Set-Cookie")); Path=/; HttpOnly",
                ]))
        for path in ["/settings", "/login", "/upload"] {
            server.stub(.post, path, response: .text("ok"))
        }
        server.stub(
            .post, "/token",
            response: .data(
                Data(
                    #"{"access_token":"\#(secret("access token (Authorization: Bearer, token file)"))","refresh_token":"\#(secret("response refresh_token"))"}"#
                        .utf8), contentType: "application/json", headers: ["Cache-Control": "no-store"]))
        return server
    }
}
