import Foundation
import Testing

@testable import Errand

/// Pins match their host whatever its spelling: Unicode or Punycode, any case, the root's dot,
/// every form of an IP address; a host IDNA refuses is refused when the pins are made.
@Suite struct PinningHostSpellingTests {
    static let validPins = [Data(repeating: 1, count: 32), Data(repeating: 2, count: 32)].map {
        $0.base64EncodedString()
    }

    @Test(arguments: ["bücher.example", "BÜCHER.example.", "xn--bcher-kva.example", "XN--BCHER-KVA.EXAMPLE"])
    func pinsForAUnicodeHostCoverAConnectionToItInEitherSpelling(pinned: String) throws {
        // Given pins for the host, written one way
        let pins = try PublicKeyPins([pinned: Self.validPins])

        // When a connection to https://bücher.example/ is made: Foundation gives its host in
        // Punycode through URL, and in Unicode through URLComponents
        let urlHost = try #require(URL(string: "https://bücher.example/")?.host)
        let componentsHost = try #require(URLComponents(string: "https://bücher.example/")?.host)

        // Then both spellings, and the others, are pinned
        for host in [urlHost, componentsHost, "bücher.example", "xn--bcher-kva.example", "BÜCHER.EXAMPLE."] {
            #expect(pins.covers(host: host), "\(host)")
        }
        #expect(!pins.covers(host: "bucher.example"))
        #expect(!pins.covers(host: "www.xn--bcher-kva.example"))
    }

    @Test func aWildcardOverAUnicodeNameCoversItsSubdomainsInPunycode() throws {
        // Given a wildcard written in Unicode
        let pins = try PublicKeyPins(["*.bücher.example": Self.validPins])

        // Then subdomains are covered however they arrive, and the parent is not
        #expect(pins.covers(host: "api.xn--bcher-kva.example"))
        #expect(pins.covers(host: "API.bücher.example."))
        #expect(try pins.covers(host: #require(URL(string: "https://a.b.bücher.example/")?.host)))
        #expect(!pins.covers(host: "xn--bcher-kva.example"))
    }

    @Test(arguments: ["[::1]", "[0:0::1]", "::1", "[0:0:0:0:0:0:0:1]"])
    func anIPv6LiteralCanBePinnedInAnyForm(pinned: String) throws {
        // Given pins for the loopback address, in one of its forms
        let pins = try PublicKeyPins([pinned: Self.validPins])

        // Then a connection to it, in every form URL gives or a person writes, is pinned
        let urlHost = try #require(URL(string: "https://[::1]:8443/")?.host)
        for host in [urlHost, "::1", "[::1]", "[0:0::1]", "0:0:0:0:0:0:0:1"] {
            #expect(pins.covers(host: host), "\(host)")
        }
        #expect(!pins.covers(host: "::2"))
        #expect(!pins.covers(host: "127.0.0.1"))
    }

    @Test func anIPv6AddressIsOneHostInUpperAndLowerCase() throws {
        // Given pins for an address written in upper case
        let pins = try PublicKeyPins(["[2001:DB8::1]": Self.validPins])

        // Then its lower-case and expanded forms are pinned, as URL gives them
        let urlHost = try #require(URL(string: "https://[2001:db8:0:0:0:0:0:1]/")?.host)
        #expect(pins.covers(host: urlHost))
        #expect(pins.covers(host: "2001:db8::1"))
        #expect(pins.covers(host: "[2001:0DB8::0001]"))
        #expect(!pins.covers(host: "[2001:db8::2]"))
    }

    @Test func anIPv4AddressIsPinnedInEverySpellingAResolverReads() throws {
        // Given pins for 127.0.0.1
        let pins = try PublicKeyPins(["127.0.0.1": Self.validPins])

        // Then each spelling that reaches it is pinned, the IPv4-mapped IPv6 one too
        for host in ["127.1", "0x7f.0.0.1", "0177.0.0.1", "2130706433", "::ffff:127.0.0.1", "127.0.0.1."] {
            #expect(pins.covers(host: host), "\(host)")
        }
        #expect(!pins.covers(host: "127.0.0.2"))
    }

    @Test(arguments: [
        "a b.example", "bad\u{0}host.example", "evil\u{1B}]8;;x\u{7}.example", "xn--abc-.example",
        "a\u{200D}b.example",
        "host.example:443", "[::1]:443", "[fe80::zz]", "1.example.com.10", "*.[::1]", "*.127.1",
        "a%2Fb.example",
    ])
    func aHostIDNARefusesIsRefusedAtConfigurationNeverLeftUnpinned(host: String) throws {
        // Given pins for a host that has no canonical spelling
        let error = #expect(throws: NetworkError.self, "\(host.debugDescription)") {
            try PublicKeyPins([host: Self.validPins])
        }

        // Then the configuration fails with `pinning`, naming the host escaped, and saying why
        let refusal = try #require(error)
        #expect(refusal.code == .pinning)
        #expect(refusal.message.contains(EscapedText.line(host)))
        #expect(!refusal.message.contains("\u{1B}"))
        #expect(!refusal.message.contains("\u{0}"))
    }

    @Test func twoSpellingsOfOneHostArePinnedTwice() {
        // Given one host under its Unicode and its Punycode spelling, or two forms of one address
        for pins in [
            ["bücher.example": Self.validPins, "xn--bcher-kva.example": Self.validPins],
            ["[::1]": Self.validPins, "::1": Self.validPins],
            ["127.0.0.1": Self.validPins, "127.1": Self.validPins],
        ] {
            // Then they are refused: which pins would apply is ambiguous
            let error = #expect(throws: NetworkError.self) { try PublicKeyPins(pins) }
            #expect(error?.message.contains("pinned twice") == true)
        }
    }
}
