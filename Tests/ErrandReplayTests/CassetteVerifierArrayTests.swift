import Errand
import ErrandReplay
import Foundation
import Testing

/// How the elements of an array are compared: a key every recorded element had is required
/// of each live element, and one that lacks it is named at its own path.
@Suite struct CassetteVerifierArrayTests {
    let live = InMemoryDispatcher()

    func verify(recorded: String, live json: String) async -> [VerificationReport.Kind] {
        live.stub(.get, "/items", response: .data(Data(json.utf8), contentType: "application/json"))
        let entry = CassetteVerifierTests.recorded("GET", "https://api.example.com/items", json: recorded)
        let har = HAR(creator: HAR.Creator(name: "test", version: "1"), entries: [entry])
        return await CassetteVerifier(har: har, dispatcher: live).verify().differences.map(\.kind)
    }

    @Test func aKeyEveryRecordedElementHadIsMissingAtTheLiveElementThatLacksIt() async {
        // Given items that all had a name, and a live answer whose second item has none
        let kinds = await verify(
            recorded: #"{"items":[{"id":1,"name":"a"},{"id":2,"name":"b"}]}"#,
            live: #"{"items":[{"id":1,"name":"a"},{"id":2},{"id":3,"name":"c"}]}"#)
        // Then the missing name is reported at that element, and breaks a client decoding [Item]
        #expect(kinds == [.keyMissing(path: "items[1].name")])
    }

    @Test func aKeyOnlySomeRecordedElementsHadIsOptional() async {
        // Given a nickname only the first recorded item had
        let kinds = await verify(
            recorded: #"[{"id":1,"nickname":"x"},{"id":2}]"#,
            live: #"[{"id":1},{"id":2},{"id":3}]"#)
        // Then no element lacks anything it must have
        #expect(kinds.isEmpty)
    }

    @Test func nestedArraysOfObjectsNameTheInnerElement() async {
        // Given orders whose lines all had a sku, and a live second order whose first line lost it
        let kinds = await verify(
            recorded: #"{"orders":[{"lines":[{"sku":"a","qty":1}]},{"lines":[{"sku":"b","qty":2}]}]}"#,
            live: #"{"orders":[{"lines":[{"sku":"a","qty":1}]},{"lines":[{"qty":2},{"qty":3}]}]}"#)
        // Then the first line that lacks it is named, once
        #expect(kinds == [.keyMissing(path: "orders[1].lines[0].sku")])
    }

    @Test func aMissingKeyIsReportedOnceAtTheFirstElementThatLacksIt() async {
        // Given a required key that three live elements lack
        let kinds = await verify(
            recorded: #"[{"a":1,"b":1}]"#, live: #"[{"a":1,"b":1},{"a":2},{"a":3},{"a":4}]"#)
        // Then it is one change, at the first of them
        #expect(kinds == [.keyMissing(path: "[1].b")])
    }

    @Test func nullElementsAndHostileKeysKeepTheComparisonWhole() async {
        // Given a null element (which has no keys), and keys with a line break, an escape and
        // non-ASCII text
        let kinds = await verify(
            recorded: #"[{"na\nme":"a","\u001b[2J":1,"é":true},{"na\nme":"b","\u001b[2J":2,"é":false}]"#,
            live: #"[null,{"\u001b[2J":3,"é":true}]"#)
        // Then only the one key the second element lacks is missing
        #expect(kinds == [.keyMissing(path: "[1].na\nme")])
    }

    @Test func aNullWhereEveryRecordedElementHadAValueIsReportedAtThatElement() async {
        // Given items that all had a name, and a live answer whose second item's name is null
        let kinds = await verify(
            recorded: #"{"items":[{"n":"x"},{"n":"y"}]}"#,
            live: #"{"items":[{"n":"x"},{"n":null},{"n":null}]}"#)
        // Then the null is reported once, at the first element that has it
        #expect(kinds == [.becameNull(path: "items[1].n")])
    }

    @Test func aNullSomeRecordedElementHadOrAllLiveOnesHaveIsReportedAsBefore() async {
        // Given a key a recorded element already had as null, then one no live element has a value for
        let optional = await verify(
            recorded: #"[{"n":"x"},{"n":null}]"#, live: #"[{"n":"x"},{"n":null}]"#)
        let allNull = await verify(recorded: #"[{"n":"x"},{"n":"y"}]"#, live: #"[{"n":null}]"#)
        // Then the first is no change, the second one change, not two
        #expect(optional.isEmpty)
        #expect(allNull == [.becameNull(path: "[0].n")])
    }
}
