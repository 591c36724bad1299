/// The ways people catch Errand's errors, as source files for ``CatchPatternCompileTests``.
///
/// Each public call that throws `NetworkError` appears in each pattern. The snippets are
/// compiled through SIL generation, because that is where Swift 6.3 crashed on a redundant
/// `as NetworkError` cast of a typed-throws error followed by `#expect` or `#require`.
enum CatchPatternSnippets {
    /// Declarations every snippet shares: a request, a dispatcher that answers nothing, the calls.
    static let prelude = #"""
        import Errand
        import ErrandReplay
        import Foundation

        struct GetText: RequestType {
            typealias ResponseType = String
            var data: RequestData { .get("/text") }
        }

        let dispatcher = InMemoryDispatcher()
        let answer = NetworkResponse(statusCode: 200)

        """#

    /// Swift Testing: `as NetworkError` with and without a last `catch`, `is`, `#expect` and
    /// `#require` inside the `catch`, and `#expect(throws:)`.
    static let swiftTesting =
        prelude + #"""
            import Testing

            @Test func executeCaughtAsNetworkError() async throws {
                do {
                    _ = try await GetText().execute(dispatcher: dispatcher)
                } catch let error as NetworkError {
                    #expect(error.code == .unmatchedRequest)
                    #expect(error.message.contains("GET"))
                }
            }

            @Test func executeWithResponseCaughtAsNetworkError() async throws {
                do {
                    _ = try await GetText().executeWithResponse(dispatcher: dispatcher)
                } catch let error as NetworkError {
                    #expect(error.code == .unmatchedRequest)
                    #expect(error.description.contains("GET"))
                }
            }

            @Test func dispatchCaughtAsNetworkError() async throws {
                do {
                    _ = try await dispatcher.dispatch(.get("/missing"))
                } catch let error as NetworkError {
                    try #require(error.message.contains("missing"))
                }
            }

            @Test func catchAsThenCatchAll() async {
                do {
                    _ = try await GetText().execute(dispatcher: dispatcher)
                } catch let error as NetworkError {
                    #expect(error.code == .unmatchedRequest)
                    #expect(error.message.hasPrefix("No"))
                } catch {
                    Issue.record(error, "only NetworkError is thrown")
                }
            }

            @Test func catchIs() async throws {
                do {
                    _ = try await GetText().execute(dispatcher: dispatcher)
                } catch is NetworkError {
                    #expect([1, 2].contains(2))
                }
            }

            @Test func catchWithoutCast() async {
                do {
                    _ = try await GetText().execute(dispatcher: dispatcher)
                } catch {
                    #expect((error as? NetworkError)?.code == .unmatchedRequest)
                    #expect("\(error)".contains("unmatchedRequest"))
                }
            }

            @Test func expectThrows() async throws {
                let error = await #expect(throws: NetworkError.self) {
                    try await GetText().execute(dispatcher: dispatcher)
                }
                #expect(error?.code == .unmatchedRequest)
                #expect(error?.message.contains("GET") == true)
                await #expect {
                    try await dispatcher.dispatch(.get("/missing"))
                } throws: { error in
                    (error as? NetworkError)?.code == .unmatchedRequest
                }
            }

            @Test func caughtInClosuresAndTasks() async throws {
                let check: @Sendable () async throws -> Void = {
                    do {
                        _ = try await GetText().execute(dispatcher: dispatcher)
                    } catch let error as NetworkError {
                        #expect(error.message.contains("GET"))
                    }
                }
                try await check()
                let task = Task {
                    do {
                        _ = try await dispatcher.dispatch(.get("/missing"))
                    } catch let error as NetworkError {
                        #expect(error.message.contains("missing"))
                    } catch {
                        Issue.record(error)
                    }
                }
                await task.value
            }

            @Test func synchronousCallsCaughtAsNetworkError() throws {
                do {
                    try RequestData.get("/x").body(.raw(Data([1]), contentType: "x/y")).validate()
                } catch let error as NetworkError {
                    #expect(error.message.contains("GET"))
                }
                do {
                    _ = try RequestData.get("/x").url(relativeTo: nil)
                } catch let error as NetworkError {
                    #expect(error.message.contains("relative"))
                }
                do {
                    _ = try Recording.harRequest(for: .get("/x"), baseURL: nil)
                } catch let error as NetworkError {
                    #expect(error.message.contains("relative"))
                }
                do {
                    _ = try Recording(request: .get("/x"), baseURL: nil, response: answer)
                } catch let error as NetworkError {
                    try #require(error.message.contains("relative"))
                }
                do {
                    let failure = NetworkError(code: .transport, message: "down")
                    _ = try Recording(request: .get("/x"), baseURL: nil, failure: failure)
                } catch is NetworkError {
                    #expect(["relative"].contains("relative"))
                }
                do {
                    let missing = URL(fileURLWithPath: "/nonexistent/cassette.har")
                    _ = try ReplayDispatcher(loading: missing, mode: .replayOnly)
                } catch let error as NetworkError {
                    #expect(error.message.contains("does not exist"))
                }
                #expect(throws: NetworkError.self) { try RequestData.get("/x").url(relativeTo: nil) }
            }
            """#

    /// Plain functions and closures: `as NetworkError` with `where`, `switch` on the code, a
    /// `Task`, a `@Sendable` closure, a callback.
    static let plainCode =
        prelude + #"""
            func load() async -> String {
                do {
                    return try await GetText().execute(dispatcher: dispatcher)
                } catch let error as NetworkError where error.code == .cancelled {
                    return ""
                } catch let error as NetworkError {
                    return error.userMessage
                } catch {
                    return "\(error)"
                }
            }

            func loadOrThrow() async throws -> String {
                do {
                    return try await GetText().execute(dispatcher: dispatcher)
                } catch let error as NetworkError {
                    switch error.code {
                    case .unacceptableStatus where error.statusCode == 404: return "not found"
                    case .timedOut, .transport: return error.userMessage
                    default: throw error
                    }
                }
            }

            func inClosures() async {
                let task = Task { () -> String in
                    do {
                        return try await GetText().execute(dispatcher: dispatcher)
                    } catch let error as NetworkError {
                        return error.message
                    } catch {
                        return "\(error)"
                    }
                }
                _ = await task.value
                let body: @Sendable () async throws -> Void = {
                    do {
                        _ = try await dispatcher.dispatch(.get("/missing"))
                    } catch let error as NetworkError {
                        precondition(error.message.contains("missing"))
                    }
                }
                try? await body()
                let urls = ["/a", "b"].map { path -> URL? in
                    do {
                        return try RequestData.get(path).url(relativeTo: nil)
                    } catch let error as NetworkError {
                        _ = error.message.contains("relative")
                        return nil
                    } catch {
                        return nil
                    }
                }
                _ = urls
                GetText().execute(dispatcher: dispatcher, onSuccess: { _ in }, onError: { error in
                    _ = error.code == .decoding
                })
            }
            """#

    /// XCTest: assertions inside `catch`, and `XCTAssertThrowsError`.
    static let xcTest =
        prelude + #"""
            import XCTest

            final class CatchingTests: XCTestCase {
                func testExecuteCaughtAsNetworkError() async throws {
                    do {
                        _ = try await GetText().execute(dispatcher: dispatcher)
                        XCTFail("expected an error")
                    } catch let error as NetworkError {
                        XCTAssertEqual(error.code, .unmatchedRequest)
                        XCTAssertTrue(error.message.contains("GET"))
                    }
                }

                func testDispatchCaughtAsNetworkError() async {
                    do {
                        _ = try await dispatcher.dispatch(.get("/missing"))
                    } catch let error as NetworkError {
                        XCTAssertTrue(error.message.contains("missing"))
                    } catch {
                        XCTFail("unexpected \(error)")
                    }
                }

                func testSynchronousCalls() {
                    XCTAssertThrowsError(try RequestData.get("/x").url(relativeTo: nil)) { error in
                        XCTAssertEqual((error as? NetworkError)?.code, .invalidRequest)
                    }
                    XCTAssertThrowsError(try Recording.harRequest(for: .get("/x"), baseURL: nil))
                }
            }
            """#
}
