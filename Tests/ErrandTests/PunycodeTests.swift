import Foundation
import Testing

@testable import Errand

/// Punycode, against the sample strings of RFC 3492 §7.1 and names in use.
@Suite struct PunycodeTests {
    struct Sample: Sendable, CustomStringConvertible {
        let description: String
        let codePoints: [UInt32]
        let encoded: String

        var scalars: [Unicode.Scalar] { codePoints.compactMap(Unicode.Scalar.init) }
    }

    /// RFC 3492 §7.1, (A) to (S). (I) is written in lower case: the RFC's capital `D` there is
    /// a mixed-case annotation, which an encoder need not produce.
    static let samples: [Sample] = [
        Sample(
            description: "(A) Arabic (Egyptian)",
            codePoints: [
                0x644, 0x64A, 0x647, 0x645, 0x627, 0x628, 0x62A, 0x643, 0x644, 0x645, 0x648, 0x634, 0x639,
                0x631,
                0x628, 0x64A, 0x61F,
            ], encoded: "egbpdaj6bu4bxfgehfvwxn"),
        Sample(
            description: "(B) Chinese (simplified)",
            codePoints: [0x4ED6, 0x4EEC, 0x4E3A, 0x4EC0, 0x4E48, 0x4E0D, 0x8BF4, 0x4E2D, 0x6587],
            encoded: "ihqwcrb4cv8a8dqg056pqjye"),
        Sample(
            description: "(C) Chinese (traditional)",
            codePoints: [0x4ED6, 0x5011, 0x7232, 0x4EC0, 0x9EBD, 0x4E0D, 0x8AAA, 0x4E2D, 0x6587],
            encoded: "ihqwctvzc91f659drss3x8bo0yb"),
        Sample(
            description: "(D) Czech",
            codePoints: [
                0x50, 0x72, 0x6F, 0x10D, 0x70, 0x72, 0x6F, 0x73, 0x74, 0x11B, 0x6E, 0x65, 0x6D, 0x6C, 0x75,
                0x76,
                0xED, 0x10D, 0x65, 0x73, 0x6B, 0x79,
            ], encoded: "Proprostnemluvesky-uyb24dma41a"),
        Sample(
            description: "(E) Hebrew",
            codePoints: [
                0x5DC, 0x5DE, 0x5D4, 0x5D4, 0x5DD, 0x5E4, 0x5E9, 0x5D5, 0x5D8, 0x5DC, 0x5D0, 0x5DE, 0x5D3,
                0x5D1,
                0x5E8, 0x5D9, 0x5DD, 0x5E2, 0x5D1, 0x5E8, 0x5D9, 0x5EA,
            ], encoded: "4dbcagdahymbxekheh6e0a7fei0b"),
        Sample(
            description: "(F) Hindi (Devanagari)",
            codePoints: [
                0x92F, 0x939, 0x932, 0x94B, 0x917, 0x939, 0x93F, 0x928, 0x94D, 0x926, 0x940, 0x915, 0x94D,
                0x92F,
                0x94B, 0x902, 0x928, 0x939, 0x940, 0x902, 0x92C, 0x94B, 0x932, 0x938, 0x915, 0x924, 0x947,
                0x939,
                0x948, 0x902,
            ], encoded: "i1baa7eci9glrd9b2ae1bj0hfcgg6iyaf8o0a1dig0cd"),
        Sample(
            description: "(G) Japanese (kanji and hiragana)",
            codePoints: [
                0x306A, 0x305C, 0x307F, 0x3093, 0x306A, 0x65E5, 0x672C, 0x8A9E, 0x3092, 0x8A71, 0x3057,
                0x3066,
                0x304F, 0x308C, 0x306A, 0x3044, 0x306E, 0x304B,
            ], encoded: "n8jok5ay5dzabd5bym9f0cm5685rrjetr6pdxa"),
        Sample(
            description: "(H) Korean (Hangul syllables)",
            codePoints: [
                0xC138, 0xACC4, 0xC758, 0xBAA8, 0xB4E0, 0xC0AC, 0xB78C, 0xB4E4, 0xC774, 0xD55C, 0xAD6D,
                0xC5B4,
                0xB97C, 0xC774, 0xD574, 0xD55C, 0xB2E4, 0xBA74, 0xC5BC, 0xB9C8, 0xB098, 0xC88B, 0xC744,
                0xAE4C,
            ], encoded: "989aomsvi5e83db1d2a355cv1e0vak1dwrv93d5xbh15a0dt30a5jpsd879ccm6fea98c"),
        Sample(
            description: "(I) Russian (Cyrillic)",
            codePoints: [
                0x43F, 0x43E, 0x447, 0x435, 0x43C, 0x443, 0x436, 0x435, 0x43E, 0x43D, 0x438, 0x43D, 0x435,
                0x433,
                0x43E, 0x432, 0x43E, 0x440, 0x44F, 0x442, 0x43F, 0x43E, 0x440, 0x443, 0x441, 0x441, 0x43A,
                0x438,
            ], encoded: "b1abfaaepdrnnbgefbadotcwatmq2g4l"),
        Sample(
            description: "(J) Spanish",
            codePoints: [
                0x50, 0x6F, 0x72, 0x71, 0x75, 0xE9, 0x6E, 0x6F, 0x70, 0x75, 0x65, 0x64, 0x65, 0x6E, 0x73,
                0x69,
                0x6D, 0x70, 0x6C, 0x65, 0x6D, 0x65, 0x6E, 0x74, 0x65, 0x68, 0x61, 0x62, 0x6C, 0x61, 0x72,
                0x65,
                0x6E, 0x45, 0x73, 0x70, 0x61, 0xF1, 0x6F, 0x6C,
            ], encoded: "PorqunopuedensimplementehablarenEspaol-fmd56a"),
        Sample(
            description: "(K) Vietnamese",
            codePoints: [
                0x54, 0x1EA1, 0x69, 0x73, 0x61, 0x6F, 0x68, 0x1ECD, 0x6B, 0x68, 0xF4, 0x6E, 0x67, 0x74, 0x68,
                0x1EC3, 0x63, 0x68, 0x1EC9, 0x6E, 0xF3, 0x69, 0x74, 0x69, 0x1EBF, 0x6E, 0x67, 0x56, 0x69,
                0x1EC7,
                0x74,
            ], encoded: "TisaohkhngthchnitingVit-kjcr8268qyxafd2f1b9g"),
        Sample(
            description: "(L) 3<nen>B<gumi><kinpachi><sensei>",
            codePoints: [0x33, 0x5E74, 0x42, 0x7D44, 0x91D1, 0x516B, 0x5148, 0x751F],
            encoded: "3B-ww4c5e180e575a65lsy2b"),
        Sample(
            description: "(M) <amuro><namie>-with-SUPER-MONKEYS",
            codePoints: [
                0x5B89, 0x5BA4, 0x5948, 0x7F8E, 0x6075, 0x2D, 0x77, 0x69, 0x74, 0x68, 0x2D, 0x53, 0x55, 0x50,
                0x45,
                0x52, 0x2D, 0x4D, 0x4F, 0x4E, 0x4B, 0x45, 0x59, 0x53,
            ], encoded: "-with-SUPER-MONKEYS-pc58ag80a8qai00g7n9n"),
        Sample(
            description: "(N) Hello-Another-Way-<sorezore><no><basho>",
            codePoints: [
                0x48, 0x65, 0x6C, 0x6C, 0x6F, 0x2D, 0x41, 0x6E, 0x6F, 0x74, 0x68, 0x65, 0x72, 0x2D, 0x57,
                0x61,
                0x79, 0x2D, 0x305D, 0x308C, 0x305E, 0x308C, 0x306E, 0x5834, 0x6240,
            ], encoded: "Hello-Another-Way--fc4qua05auwb3674vfr0b"),
        Sample(
            description: "(O) <hitotsu><yane><no><shita>2",
            codePoints: [0x3072, 0x3068, 0x3064, 0x5C4B, 0x6839, 0x306E, 0x4E0B, 0x32],
            encoded: "2-u9tlzr9756bt3uc0v"),
        Sample(
            description: "(P) Maji<de>Koi<suru>5<byou><mae>",
            codePoints: [
                0x4D, 0x61, 0x6A, 0x69, 0x3067, 0x4B, 0x6F, 0x69, 0x3059, 0x308B, 0x35, 0x79D2, 0x524D,
            ],
            encoded: "MajiKoi5-783gue6qz075azm5e"),
        Sample(
            description: "(Q) <pafii>de<runba>",
            codePoints: [0x30D1, 0x30D5, 0x30A3, 0x30FC, 0x64, 0x65, 0x30EB, 0x30F3, 0x30D0],
            encoded: "de-jg4avhby1noc0d"),
        Sample(
            description: "(R) <sono><supiido><de>",
            codePoints: [0x305D, 0x306E, 0x30B9, 0x30D4, 0x30FC, 0x30C9, 0x3067], encoded: "d9juau41awczczp"),
        Sample(
            description: "(S) -> $1.00 <-",
            codePoints: [0x2D, 0x3E, 0x20, 0x24, 0x31, 0x2E, 0x30, 0x30, 0x20, 0x3C, 0x2D],
            encoded: "-> $1.00 <--"),
    ]

    @Test(arguments: samples)
    func encodesAndDecodesTheSampleStringsOfRFC3492(sample: Sample) throws {
        // Given a sample's code points and its Punycode
        #expect(sample.scalars.count == sample.codePoints.count)

        // When each is converted, Then it gives the other
        #expect(Punycode.encode(sample.scalars) == sample.encoded)
        #expect(try #require(Punycode.decode(sample.encoded)) == sample.scalars)
    }

    @Test func decodesDigitsInEitherCase() throws {
        // Given the RFC's own spelling of (I), with its mixed-case annotation
        let decoded = try #require(Punycode.decode("b1abfaaepdrnnbgefbaDotcwatmq2g4l"))

        // Then it decodes as the lower-case form does
        #expect(decoded == Punycode.decode("b1abfaaepdrnnbgefbadotcwatmq2g4l"))
    }

    @Test(arguments: [
        ("münchen", "mnchen-3ya"), ("bücher", "bcher-kva"), ("例え", "r8jz45g"), ("テスト", "zckzah"),
        ("ü", "tda"), ("ß", "zca"), ("σ", "4xa"),
    ])
    func encodesNamesInUse(label: String, encoded: String) {
        // Given a label in NFC, When encoded, Then it is the Punycode registries use
        #expect(Punycode.encode(Array(label.unicodeScalars)) == encoded)
    }

    @Test(arguments: [
        "99999999999999999999999", "zzzzzzzzzzzzzzzzzzzzzzzzzzzzzz", "-", "ü", "ab!", "a-\u{0}", "9", "99",
        "aaa-99999999999",
    ])
    func refusesPunycodeThatDoesNotDecode(text: String) {
        // Given digits that overflow, run past the end, are not digits, or name a code point
        // outside Unicode or a basic one, When decoded, Then nothing is made up
        #expect(Punycode.decode(text) == nil)
    }
}
