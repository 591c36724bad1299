import Errand
import ErrandReplay
import Foundation

/// The HAR files the offline environment replays: one for the catalog, one for the session,
/// one for sign-ins with other credentials than the demo account's.
///
/// `--record` writes them from a live server; they are redacted as they are written with the
/// whole shared vocabulary (tokens, `Authorization`, passwords), and filed under
/// ``NetworkEnvironment/recordedHost`` whatever the server's address, so a recording made on
/// one port replays everywhere.
struct Recordings: Sendable {
    /// The folder that holds the files.
    let directory: URL

    /// `Example/Recordings` in this checkout, found from this source file's path.
    static var shipped: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Recordings", isDirectory: true)
    }

    /// The products' answers.
    var catalog: URL { directory.appendingPathComponent("catalog.har") }
    /// Login, refresh and `me`.
    var session: URL { directory.appendingPathComponent("session.har") }
    /// Sign-ins with other credentials than the demo account's, such as a wrong password.
    var otherSignIns: URL { directory.appendingPathComponent("other-sign-ins.har") }

    /// A dispatcher that replays both files, or, given an upstream, re-records them through it.
    func dispatcher(recordingThrough upstream: (any NetworkDispatcher)? = nil) -> RecordingsDispatcher {
        let configuration = Self.configuration
        let mode: ReplayDispatcher.Mode = upstream == nil ? .replayOnly : .recordAll
        func replay(_ file: URL) -> ReplayDispatcher {
            ReplayDispatcher(
                cassette: file, baseURL: NetworkEnvironment.recordedHost, mode: mode, upstream: upstream,
                configuration: configuration)
        }
        return RecordingsDispatcher(
            catalog: replay(catalog), session: replay(session), otherSignIns: replay(otherSignIns))
    }

    /// Replay that repeats the last answer (a command may ask twice), with its own mode
    /// variable (a test suite's `ERRAND_REPLAY_MODE` must not turn the example into a recorder).
    /// Redaction is the default one: a password typed while recording is never written.
    static var configuration: ReplayDispatcher.Configuration {
        ReplayDispatcher.Configuration {
            $0.whenExhausted = .repeatLast
            $0.modeVariable = "ERRAND_EXAMPLE_REPLAY_MODE"
            $0.allowsRecordingOnCI = true
        }
    }
}

/// Sends `/auth/...` requests to the session recordings (sign-ins with other credentials than
/// the demo account's to their own) and everything else to the catalog's.
struct RecordingsDispatcher: NetworkDispatcher {
    let catalog: ReplayDispatcher
    let session: ReplayDispatcher
    let otherSignIns: ReplayDispatcher

    /// Answers from the file that holds the request's part of the API.
    @discardableResult
    func dispatch(
        request: RequestData,
        onSuccess: @escaping @Sendable (NetworkResponse) -> Void,
        onError: @escaping @Sendable (NetworkError) -> Void
    ) -> any Cancellable {
        let replay =
            !request.path.hasPrefix("/auth/")
            ? catalog : DemoAccount.isOtherSignIn(request) ? otherSignIns : session
        return replay.dispatch(request: request, onSuccess: onSuccess, onError: onError)
    }
}
