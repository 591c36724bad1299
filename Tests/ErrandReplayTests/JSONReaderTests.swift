import Foundation
import Testing

@testable import ErrandReplay

/// ErrandReplay's JSON reader: values by meaning, and the first problem with where it is.
@Suite struct JSONReaderTests {
    private func read(_ text: String) -> Result<ReplayJSON, JSONReader.Problem> {
        JSONReader.read(Data(text.utf8))
    }

    private func firstProblem(_ text: String) -> JSONReader.Problem? {
        guard case .failure(let problem) = read(text) else { return nil }
        return problem
    }

    @Test func readsValuesByMeaning() throws {
        // Given an object whose keys are out of order, one repeated, and whose numbers have
        // several spellings
        let value = try read(
            #"{"b": [1.0, 1e0, -0, 25e-1], "a": {"t": true, "f": false, "n": null}, "b": 2}"#
        ).get()
        // Then a repeated key keeps its last value, as JSONDecoder does, and numbers compare by value
        #expect(
            value
                == .object([
                    "b": .number(2), "a": .object(["t": .bool(true), "f": .bool(false), "n": .null]),
                ]))
        #expect(
            try read("[1.0, 1e0, -0, 25e-1]").get()
                == .array([.number(1), .number(1), .number(0), .number(2.5)]))
    }

    @Test func undoesEveryEscapeAndKeepsNonASCII() throws {
        // Given a string with short escapes, a NUL, an ESC, a surrogate pair and raw UTF-8
        let value = try read(#"["q\"b\\s\/n\nr\rt\tb\bf\fnul\u0000esc\u001B😀\ud83d\ude00é"]"#).get()
        // Then each escape reads as its character
        #expect(value == .array([.string("q\"b\\s/n\nr\rt\tb\u{8}f\u{C}nul\0esc\u{1B}😀😀é")]))
    }

    @Test func skipsAByteOrderMarkAndReadsATopLevelScalar() throws {
        #expect(try JSONReader.read(Data([0xEF, 0xBB, 0xBF]) + Data("42".utf8)).get() == .number(42))
        #expect(try read(#""text""#).get() == .string("text"))
    }

    @Test func namesLineColumnAndPathOfASyntaxError() throws {
        // Given an object whose second line misses a comma inside an array
        let problem = try #require(firstProblem("{\"a\": [1,\n  2 3]}"))
        // Then the problem names the line, the column, the offset and the path
        #expect(problem.kind == .notJSON)
        #expect(problem.reason == "expected ',' or ']' but found '3'")
        #expect((problem.line, problem.column, problem.offset) == (2, 5, 14))
        #expect(problem.path == [.key("a"), .index(1)])
    }

    @Test(arguments: [
        (#"{"a": "x"#, HARError.Code.truncated),
        (#"{"a": tru"#, .truncated),
        (#"{"a": "\u12"#, .truncated),
        ("[\"raw \u{1B} esc\"]", .notJSON),
        ("[\"raw \0 nul\"]", .notJSON),
        ("[\"cr \r\"]", .notJSON),
        (#"["\x"]"#, .notJSON),
        (#"["\ud800"]"#, .notJSON),
        (#"["\udc00"]"#, .notJSON),
        (#"["\u-041"]"#, .notJSON),
        (#"["\u12G4"]"#, .notJSON),
        (#"[01]"#, .notJSON),
        (#"[1.]"#, .notJSON),
        (#"[1e400]"#, .invalidValue),
        (#"[-1e400]"#, .invalidValue),
        (#"[Infinity]"#, .notJSON),
        (#"[NaN]"#, .notJSON),
        (#"{"a": 1}}"#, .notJSON),
        (#"{a: 1}"#, .notJSON),
        ("", .truncated),
    ])
    func refusesHostileInputWithAReason(input: String, kind: HARError.Code) {
        // Given bytes that are not JSON, When read, Then the problem has the right kind and a reason
        let problem = firstProblem(input)
        #expect(problem?.kind == kind, "\(input)")
        #expect(problem?.reason.isEmpty == false)
    }

    @Test(arguments: ["1e200", "-1e200", "1e-200", "1.7976931348623157e308", "5e-324"])
    func refusesAsAValueANumberBeyondADecimal(number: String) throws {
        // Given a body with a number a Double holds but a Decimal does not
        let body = Data(#"{"x": \#(number)}"#.utf8)
        // Then it is not a value to compare by meaning, as JSONDecoder reading a Decimal says
        #expect(ReplayJSON.parse(body) == nil)
        #expect((try? JSONDecoder().decode([String: Decimal].self, from: body)) == nil)
        // And it breaks no grammar, so a cassette's syntax error is looked for past it
        #expect(throws: Never.self) { try JSONReader.read(body, decimalNumbers: false).get() }
    }

    @Test func refusesBytesThatAreNotUTF8() throws {
        // Given an overlong encoding of `/` and a lone continuation byte inside strings
        for bytes: [UInt8] in [[0x5B, 0x22, 0xC0, 0xAF, 0x22, 0x5D], [0x5B, 0x22, 0x80, 0x22, 0x5D]] {
            guard case .failure(let problem) = JSONReader.read(Data(bytes)) else {
                Issue.record("read \(bytes) as JSON")
                continue
            }
            #expect(problem.kind == .notJSON)
        }
    }

    @Test func refusesNestingDeeperThanFoundationAcceptsWithoutOverflowing() throws {
        // Given 100,000 open arrays
        let problem = try #require(firstProblem(String(repeating: "[", count: 100_000)))
        // Then the reader stops at the limit, with a short path
        #expect(problem.kind == .nestedTooDeep)
        #expect(problem.offset == JSONReader.maximumDepth)
        #expect(problem.path.count == 8)
        // And exactly the limit is accepted
        let deepest = String(repeating: "[", count: 512) + String(repeating: "]", count: 512)
        #expect((try? read(deepest).get()) != nil)
    }
}
