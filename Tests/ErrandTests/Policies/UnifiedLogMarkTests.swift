import Testing

@testable import Errand
@testable import ErrandPolicies

/// How `OSLogSink` marks each entry for `os.Logger`: level by event, privacy by option, private
/// unless told otherwise.
@Suite struct UnifiedLogMarkTests {
    @Test func aSinkGivenNoPrivacyLogsPrivately() {
        // Given the privacy of a sink made without one, Then it is private
        #expect(UnifiedLogMark.defaultPrivacy == .private)
    }

    @Test(arguments: LogPrivacy.allCases)
    func failuresAreErrorsAndTheRestDebug(privacy: LogPrivacy) {
        // Given a sink's privacy, When each event is marked
        let failure = UnifiedLogMark(.failure, privacy: privacy)
        let request = UnifiedLogMark(.request, privacy: privacy)
        let response = UnifiedLogMark(.response, privacy: privacy)

        // Then a failure is an error, a request or response is debug, and the privacy is the sink's
        #expect(failure.level == .error)
        #expect(request.level == .debug)
        #expect(response.level == .debug)
        #expect([failure, request, response].allSatisfy { $0.privacy == privacy })
    }
}
