import Foundation
import Testing

@testable import Errand

/// The one spelling of a host that pins are compared in.
@Suite struct HostNameTests {
    @Test(arguments: [
        ("bücher.example", "xn--bcher-kva.example"),
        ("BÜCHER.example.", "xn--bcher-kva.example"),
        ("xn--bcher-kva.example", "xn--bcher-kva.example"),
        ("XN--BCHER-KVA.Example", "xn--bcher-kva.example"),
        ("bu\u{308}cher.example", "xn--bcher-kva.example"),
        ("münchen.de", "xn--mnchen-3ya.de"),
        ("例え.テスト", "xn--r8jz45g.xn--zckzah"),
        ("例え\u{3002}テスト", "xn--r8jz45g.xn--zckzah"),
        ("例え\u{FF0E}テスト", "xn--r8jz45g.xn--zckzah"),
        ("例え\u{FF61}テスト\u{3002}", "xn--r8jz45g.xn--zckzah"),
        ("ＡＰＩ.example.com", "api.example.com"),
        ("Σ.gr", "xn--4xa.gr"),
        ("ß.de", "xn--zca.de"),
        ("api.example.com", "api.example.com"),
        ("my_host.internal", "my_host.internal"),
    ])
    func writesEveryNameInOneSpelling(host: String, canonical: String) throws {
        // Given a host name in Unicode, Punycode, any case, with or without the root's dot
        // When it is canonicalised, Then it is lower-case ASCII, Punycode where it is not ASCII
        let name = try HostName(host)
        #expect(name.text == canonical)
        #expect(!name.isAddress)
    }

    @Test(arguments: [
        ("[::1]", "[::1]"), ("::1", "[::1]"), ("[0:0::1]", "[::1]"), ("[0:0:0:0:0:0:0:1]", "[::1]"),
        ("[2001:DB8::1]", "[2001:db8::1]"), ("2001:0db8:0000:0000:0000:0000:0000:0001", "[2001:db8::1]"),
        ("[2001:db8:0:0:1:0:0:1]", "[2001:db8::1:0:0:1]"),
        ("[2001:db8:0:1:1:1:1:1]", "[2001:db8:0:1:1:1:1:1]"),
        ("[fe80::1%en0]", "[fe80::1]"), ("fe80::1%25eth0", "[fe80::1]"),
        ("[::ffff:127.0.0.1]", "127.0.0.1"), ("[::ffff:7f00:1]", "127.0.0.1"),
        ("127.0.0.1", "127.0.0.1"), ("127.1", "127.0.0.1"), ("0x7f.0.0.1", "127.0.0.1"),
        ("0177.0.0.1", "127.0.0.1"), ("2130706433", "127.0.0.1"), ("127.0.0.1.", "127.0.0.1"),
        ("１２７.０.０.１", "127.0.0.1"),
    ])
    func writesEveryAddressInOneSpelling(host: String, canonical: String) throws {
        // Given an IP address in any form a URL or a resolver reads
        // When it is canonicalised, Then IPv6 is bracketed RFC 5952 text and IPv4 dotted decimal
        let name = try HostName(host)
        #expect(name.text == canonical)
        #expect(name.isAddress)
    }

    @Test(arguments: [
        "", ".", "a..b", ".a", "a b.example", "a\tb.example", "a\r\nb.example", "a\u{0}b.example",
        "a\u{1B}b.example",
        "a%41.example", "a/b", "a@b", "a:443", "api.example.com:443", "*", "a.*.example",
        "a\u{200D}b.example",
        "a\u{00AD}b.example", "\u{301}a.example", "a\u{E000}b.example", "a\u{2028}b.example", "⒈example",
        "a／b.example", "xn--abc.example", "xn--.example", "xn--a.example", "xn--zca-.example",
        "xn--2be.example",
        "ᏣᎳᎩ.example", String(repeating: "a", count: 64) + ".example",
        String(repeating: "ü", count: 60) + ".example",
        Array(repeating: "abcdefghi", count: 26).joined(separator: "."),
        "1.example.com.10", "example.0x", "256.256.256.256", "[::1", "[]", "[::1]x", "[::g]",
        "[1:2:3:4:5:6:7:8:9]",
        "[::1\u{0}]", "::1\u{0}junk", "[127.0.0.1]",
    ])
    func refusesWhatIDNARefusesRatherThanGuessing(host: String) {
        // Given a host IDNA refuses, or maps in ways not certain, or no address parser reads
        // When it is canonicalised, Then it is refused with a reason
        #expect(throws: HostName.Refusal.self, "\(host.debugDescription)") { try HostName(host) }
    }

    @Test func saysWhyAHostIsRefusedWithoutWritingItsControlCharacters() throws {
        // Given a host with an escape sequence in it
        let refusal = #expect(throws: HostName.Refusal.self) { try HostName("evil\u{1B}[31m.example") }

        // Then the reason names the character by its number, escaped
        let reason = try #require(refusal?.reason)
        #expect(reason.contains("U+001B"))
        #expect(!reason.contains("\u{1B}"))
    }

    @Test(arguments: [
        "bücher.example", "BÜCHER.example.", "münchen.de", "例え.テスト", "ＡＰＩ.example.com", "Σίσυφος.gr", "ẞ.de",
        "ς.gr", "İ.example", "ﬁ.example", "عربي.example", "ℌ.example", "a\u{3002}b.example", "[::1]",
        "[2001:DB8::1]",
        "127.1", "a-b_c.example", "xn--mnchen-3ya.de",
    ])
    func agreesWithFoundationsURLHostWhereBothAcceptAName(host: String) throws {
        // Given a host that both this canonicalisation and Foundation's URL parser accept
        let name = try HostName(host)
        guard let parsed = URL(string: "https://\(host)/")?.host else { return }

        // Then a connection to it, whose host Foundation gives, is compared in the same spelling
        #expect(HostName.lenient(parsed) == name, "Foundation gave \(parsed)")
    }

    @Test func aConnectionsHostThatIDNARefusesKeepsItsSpellingForWildcards() {
        // Given hosts that cannot be canonicalised
        // Then they are compared lower-cased without the root's dot, so a wildcard still covers them
        #expect(HostName.lenient("A_B!.Example.COM.").text == "a_b!.example.com")
        #expect(!HostName.lenient("A_B!.Example.COM.").isAddress)
        #expect(HostName.lenient("1.example.com.10").text == "1.example.com.10")
        #expect(HostName.lenient("fe80::zz").isAddress)
    }
}
