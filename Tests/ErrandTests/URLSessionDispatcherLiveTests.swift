import Errand
import ErrandTestSupport
import Foundation
import Testing

/// `URLSessionDispatcher` against httpbin on loopback, started by `scripts/test`.
@Suite(.enabled(if: LiveServer.httpbinAvailable, LiveServer.skipReason))
struct URLSessionDispatcherLiveTests {
    let dispatcher: URLSessionDispatcher

    init() throws {
        dispatcher = URLSessionDispatcher(
            baseURL: try LiveServer.require(LiveServer.httpbin, "ERRAND_HTTPBIN_URL"))
    }

    @Test func getSendsQueryItemsExactly() async throws {
        let echo = try await Request<Echo>(.get("/get").query("q", "swift & more").query("city", "Zürich 東京"))
            .execute(dispatcher: dispatcher)
        #expect(echo.args == ["q": "swift & more", "city": "Zürich 東京"])
    }

    @Test func postsJSON() async throws {
        let echo = try await Request<Echo>(.post("/post").body(.json(User(id: 7, name: "Zoë")))).execute(
            dispatcher: dispatcher)
        #expect(echo.json == .object(["id": .number(7), "name": .string("Zoë")]))
        #expect(echo.headers?["Content-Type"] == "application/json")
    }

    @Test func postsAForm() async throws {
        let echo = try await Request<Echo>(.post("/post").body(.form(["q": "a b+c&d=e", "name": "Zoë"])))
            .execute(dispatcher: dispatcher)
        #expect(echo.form == ["q": "a b+c&d=e", "name": "Zoë"])
    }

    @Test func postsMultipartWithATextFieldAndABinaryFile() async throws {
        let file = Data((0..<65_536).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ 3) })
        let echo = try await Request<Echo>(
            .post("/post").body(
                .multipart([.field("title", "Zoë & co"), .file("upload", fileName: "blob.bin", data: file)]))
        ).execute(dispatcher: dispatcher)
        #expect(echo.form == ["title": "Zoë & co"])
        let upload = try #require(echo.files?["upload"])
        #expect(try Self.bytes(ofDataURL: upload) == file)
    }

    @Test(arguments: [HTTPMethod.put, .patch, .delete])
    func sendsOtherMethods(method: HTTPMethod) async throws {
        let path = "/" + method.rawValue.lowercased()
        let echo = try await Request<Echo>(RequestData(path: path, method: method, body: .json(["k": "v"])))
            .execute(dispatcher: dispatcher)
        #expect(echo.json == .object(["k": .string("v")]))
        #expect(echo.url?.hasSuffix(path) == true)
    }

    @Test func decodes204AsEmptyResponse() async throws {
        let (_, response) = try await Request<EmptyResponse>(.get("/status/204")).executeWithResponse(
            dispatcher: dispatcher)
        #expect(response.statusCode == 204)
    }

    @Test(arguments: [404, 500])
    func reportsAnUnacceptableStatusWithTheResponse(status: Int) async throws {
        do {
            _ = try await Request<Echo>(.get("/status/\(status)")).execute(dispatcher: dispatcher)
            Issue.record("expected \(status) to fail")
        } catch let error as NetworkError {
            #expect(error.code == .unacceptableStatus)
            #expect(error.statusCode == status)
            #expect(error.response?.headers["server"] != nil)
        } catch { Issue.record(error) }
    }

    @Test func keepsTheBodyOfAnUnacceptableStatus() async throws {
        do {
            _ = try await Request<EmptyResponse>(.get("/status/418")).execute(dispatcher: dispatcher)
            Issue.record("expected 418 to fail")
        } catch let error as NetworkError {
            #expect(error.statusCode == 418)
            #expect(error.response?.text.contains("teapot") == true)
        } catch { Issue.record(error) }
    }

    @Test func aTimeoutEndsTheRequestLongBeforeTheServerAnswers() async throws {
        // httpbin answers 200 after 10 s (its longest delay); `timedOut` means the 1 s deadline
        // ended it first, with a margin a starved machine cannot eat.
        // (No wall-clock bound: under a loaded parallel suite it says nothing the code does not.)
        do {
            _ = try await Request<Echo>(.get("/delay/10").timeout(1)).execute(dispatcher: dispatcher)
            Issue.record("expected a timeout")
        } catch let error as NetworkError {
            #expect(error.code == .timedOut)
        } catch { Issue.record(error) }
    }

    @Test func aSubSecondTimeoutWaitsForItsWholeDeadline() async throws {
        // httpbin answers after 0.05 s, well inside 0.99 s even on a busy machine.
        // FoundationNetworking truncates a request's idle timeout to whole seconds, which fired
        // this one at once.
        let echo = try await Request<Echo>(.get("/delay/0.05").timeout(0.99)).execute(dispatcher: dispatcher)
        #expect(echo.url?.hasSuffix("/delay/0.05") == true)
    }

    @Test func cancellingInFlightEndsPromptly() async throws {
        // httpbin answers after 5 s; `cancelled` means the cancel ended it first.
        let probe = CallbackProbe<Echo>()
        let call = Request<Echo>(.get("/delay/5"))
            .execute(
                dispatcher: dispatcher, callbackQueue: nil, onSuccess: probe.onSuccess, onError: probe.onError
            )
        call.cancel()
        let error = try await probe.failure()
        #expect(error.code == .cancelled)
        #expect(probe.deliveries.count == 1)
    }

    @Test func followsRedirects() async throws {
        let (echo, response) = try await Request<Echo>(.get("/redirect/3")).executeWithResponse(
            dispatcher: dispatcher)
        #expect(response.url?.path == "/get")
        #expect(echo.url?.hasSuffix("/get") == true)
    }

    @Test func keepsNoCookiesByDefaultAndSendsThoseOfAConfigurationThatAcceptsThem() async throws {
        struct Cookies: Decodable, Sendable { let cookies: [String: String] }
        let base = try LiveServer.require(LiveServer.httpbin, "ERRAND_HTTPBIN_URL")
        // httpbin sets the cookie and redirects to /cookies, which echoes what the client sent.
        let setAndEcho = Request<Cookies>(.get("/cookies/set").query("session", "abc"))

        let keptByDefault = try await setAndEcho.execute(dispatcher: dispatcher)
        let sentLater = try await Request<Cookies>(.get("/cookies")).execute(dispatcher: dispatcher)
        #expect(keptByDefault.cookies.isEmpty)
        #expect(sentLater.cookies.isEmpty)

        let accepting = URLSessionDispatcher(baseURL: base, configuration: .ephemeral)
        _ = try await setAndEcho.execute(dispatcher: accepting)
        let sentByAccepting = try await Request<Cookies>(.get("/cookies")).execute(dispatcher: accepting)
        #expect(sentByAccepting.cookies == ["session": "abc"])
    }

    @Test func decodesGzip() async throws {
        struct Gzipped: Decodable, Sendable { let gzipped: Bool }
        #expect(try await Request<Gzipped>(.get("/gzip")).execute(dispatcher: dispatcher).gzipped)
    }

    @Test func returnsBinaryBodiesAsData() async throws {
        let data = try await Request<Data>(.get("/bytes/102400")).execute(dispatcher: dispatcher)
        #expect(data.count == 102_400)
    }

    @Test func uploadsAMebibyteByteForByte() async throws {
        let payload = Data((0..<1_048_576).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 17) })
        let echo = try await Request<Echo>(
            .post("/anything").body(.raw(payload, contentType: "application/octet-stream"))
        )
        .execute(dispatcher: dispatcher)
        #expect(try Self.bytes(ofDataURL: try #require(echo.data)) == payload)
    }

    @Test func sendsABearerToken() async throws {
        struct Bearer: Decodable, Sendable {
            let authenticated: Bool
            let token: String
        }
        let ok = try await Request<Bearer>(.get("/bearer").header("Authorization", "Bearer abc.def"))
            .execute(dispatcher: dispatcher)
        #expect(ok.authenticated && ok.token == "abc.def")
        do {
            _ = try await Request<Bearer>(.get("/bearer")).execute(dispatcher: dispatcher)
            Issue.record("expected 401 without a token")
        } catch let error as NetworkError {
            #expect(error.statusCode == 401)
        } catch { Issue.record(error) }
    }

    @Test func returnsA401ForWrongBasicCredentialsPromptly() async throws {
        // Left to default challenge handling on Linux this would hang until the 20 s deadline
        // and fail as timedOut instead of unacceptableStatus.
        let wrong = Data("u:wrong".utf8).base64EncodedString()
        do {
            _ = try await Request<EmptyResponse>(
                .get("/basic-auth/u/p").header("Authorization", "Basic \(wrong)").timeout(20)
            )
            .execute(dispatcher: dispatcher)
            Issue.record("expected 401")
        } catch let error as NetworkError {
            #expect(error.code == .unacceptableStatus)
            #expect(error.statusCode == 401)
            #expect(error.response?.headers["www-authenticate"]?.hasPrefix("Basic") == true)
        } catch { Issue.record(error) }
        let right = Data("u:p".utf8).base64EncodedString()
        _ = try await Request<EmptyResponse>(
            .get("/basic-auth/u/p").header("Authorization", "Basic \(right)")
        )
        .execute(dispatcher: dispatcher)
    }

    @Test func readsHTMLAsStringAndFailsToDecodeItAsJSONWithASnippet() async throws {
        let html = try await Request<String>(.get("/html")).execute(dispatcher: dispatcher)
        #expect(html.contains("Herman Melville"))
        do {
            _ = try await Request<[User]>(.get("/html")).execute(dispatcher: dispatcher)
            Issue.record("expected a decoding failure")
        } catch let error as NetworkError {
            #expect(error.code == .decoding)
            #expect(error.message.contains("<!DOCTYPE html>"))
            #expect(error.message.count < 1_500)
        } catch { Issue.record(error) }
    }

    @Test func looksUpResponseHeadersIgnoringCase() async throws {
        let response = try await dispatcher.dispatch(.get("/response-headers").query("X-Errand-Trace", "t-1"))
        #expect(response.headers["x-errand-trace"] == "t-1")
        #expect(response.headers["X-ERRAND-TRACE"] == "t-1")
    }

    @Test func twoHundredConcurrentRequestsEachCallBackExactlyOnce() async throws {
        let probes = (0..<200).map { _ in CallbackProbe<Echo>() }
        for (index, probe) in probes.enumerated() {
            Request<Echo>(.get("/get").query("i", "\(index)"))
                .execute(
                    dispatcher: dispatcher, callbackQueue: nil, onSuccess: probe.onSuccess,
                    onError: probe.onError)
        }
        for (index, probe) in probes.enumerated() {
            let echo = try await probe.first().get()
            #expect(echo.args?["i"] == "\(index)")
        }
        #expect(probes.allSatisfy { $0.deliveries.count == 1 })
    }

    /// The bytes of a `data:` URL, as httpbin echoes binary bodies.
    static func bytes(ofDataURL string: String) throws -> Data {
        let base64 = try #require(string.split(separator: ",", maxSplits: 1).last)
        return try #require(Data(base64Encoded: String(base64)))
    }
}
