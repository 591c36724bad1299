import Foundation
import Testing

@testable import Errand

/// Public-key pins: computing them from real certificates, configuring them, matching hosts.
@Suite struct PinningTests {
    /// Certificates made by openssl at test time, with openssl's own pin for each.
    struct Made: Sendable, CustomStringConvertible {
        let description: String
        let certificate: Data
        let expectedPin: String
    }

    static func make(_ kind: String, in folder: URL) throws -> Made {
        let keyOption =
            switch kind {
            case "rsa": "-newkey rsa:2048"
            case "ec": "-newkey ec -pkeyopt ec_paramgen_curve:prime256v1"
            default: "-newkey ed25519"
            }
        try OpenSSL.run(
            "openssl req -x509 \(keyOption) -nodes -keyout \(kind).key -subj /CN=\(kind).example.com -days 2 "
                + "-outform DER -out \(kind).der",
            in: folder)
        let pin = try OpenSSL.run(
            "openssl x509 -inform DER -in \(kind).der -pubkey -noout | openssl pkey -pubin -outform der "
                + "| openssl dgst -sha256 -binary | base64",
            in: folder)
        return Made(
            description: kind, certificate: try Data(contentsOf: folder.appending(path: "\(kind).der")),
            expectedPin: pin)
    }

    static let validPins = [Data(repeating: 1, count: 32), Data(repeating: 2, count: 32)].map {
        $0.base64EncodedString()
    }

    @Test(.enabled(if: OpenSSL.isAvailable, "needs openssl"), arguments: ["rsa", "ec", "ed25519"])
    func computesTheSamePinAsOpenSSL(kind: String) throws {
        // Given a certificate openssl made, and openssl's pin of its key
        let made = try Self.make(kind, in: try OpenSSL.temporaryFolder())

        // When we compute its pin
        let pin = try PublicKeyPins.pin(ofCertificate: made.certificate)

        // Then it is the same
        #expect(pin == made.expectedPin)
    }

    @Test(.enabled(if: OpenSSL.isAvailable, "needs openssl"))
    func acceptsAChainWithAPinnedKeyAndRefusesOneWithout() throws {
        // Given an RSA and an EC certificate, and pins for the RSA key plus a backup
        let folder = try OpenSSL.temporaryFolder()
        let rsa = try Self.make("rsa", in: folder)
        let ec = try Self.make("ec", in: folder)
        let pins = try PublicKeyPins(["api.example.com": [rsa.expectedPin, Self.validPins[0]]])

        // Then a chain holding the RSA certificate anywhere passes, and the EC one alone does not
        #expect(pins.accepts(host: "api.example.com", certificates: [rsa.certificate]))
        #expect(pins.accepts(host: "API.example.com.", certificates: [ec.certificate, rsa.certificate]))
        #expect(!pins.accepts(host: "api.example.com", certificates: [ec.certificate]))
        #expect(!pins.accepts(host: "api.example.com", certificates: []))
        #expect(!pins.accepts(host: "api.example.com", certificates: [Data([0x30, 0x00])]))
        // And a host that is not pinned is not checked
        #expect(pins.accepts(host: "other.example.com", certificates: [ec.certificate]))
    }

    @Test(.enabled(if: OpenSSL.isAvailable, "needs openssl"))
    func refusesTruncatedAndGarbageCertificatesWithoutCrashing() throws {
        // Given a real certificate
        let made = try Self.make("ec", in: try OpenSSL.temporaryFolder())
        let bytes = [UInt8](made.certificate)

        // When every strict prefix, and bytes flipped in its headers, are read
        for length in 0..<bytes.count {
            #expect(throws: NetworkError.self) {
                try PublicKeyPins.pin(ofCertificate: Data(bytes[0..<length]))
            }
        }
        var trailing = bytes
        trailing.append(0)
        #expect(throws: NetworkError.self) { try PublicKeyPins.pin(ofCertificate: Data(trailing)) }
        for index in 0..<min(40, bytes.count) {
            var corrupt = bytes
            corrupt[index] ^= 0xff
            // Then each gives an error or some pin, never a crash
            _ = try? PublicKeyPins.pin(ofCertificate: Data(corrupt))
        }
    }

    @Test(arguments: [
        Data(), Data([0x30]), Data([0x30, 0x84, 0xff, 0xff, 0xff, 0xff]), Data([0x30, 0x80, 0x00, 0x00]),
        Data([0x30, 0x89, 1, 2, 3, 4, 5, 6, 7, 8, 9]), Data([0x1f, 0x01, 0x00]),
        Data("not a certificate".utf8),
        Data([0x30, 0x03, 0x30, 0x01, 0x02]), Data([0x30, 0x05, 0x30, 0x03, 0xa0, 0x01, 0x00]),
    ])
    func refusesMalformedDER(bytes: Data) throws {
        // Given bytes that are not a certificate, When pinned, Then a `pinning` error says so
        let error = #expect(throws: NetworkError.self) { try PublicKeyPins.pin(ofCertificate: bytes) }
        #expect(error?.code == .pinning)
    }

    @Test func refusesASinglePinAndMalformedPins() {
        // Given configurations without a backup pin, or with pins that are not SHA-256 digests
        let cases: [[String: [String]]] = [
            ["api.example.com": [Self.validPins[0]]],
            ["api.example.com": [Self.validPins[0], Self.validPins[0]]],
            ["api.example.com": []],
            ["api.example.com": [Self.validPins[0], "not base64!"]],
            ["api.example.com": [Self.validPins[0], Data(repeating: 3, count: 20).base64EncodedString()]],
            ["": Self.validPins],
            ["*.": Self.validPins],
            ["a.*.example.com": Self.validPins],
            ["api.example.com:443": Self.validPins],
            ["API.example.com": Self.validPins, "api.example.com.": Self.validPins],
        ]
        for pins in cases {
            // When they are given, Then each is refused with `pinning`
            let error = #expect(throws: NetworkError.self, "\(pins)") { try PublicKeyPins(pins) }
            #expect(error?.code == .pinning)
        }
    }

    @Test func matchesHostsExactlyOrBySubdomainWildcard() throws {
        // Given an exact host and a wildcard
        let pins = try PublicKeyPins(["api.example.com": Self.validPins, "*.cdn.example.com": Self.validPins])

        // Then exact names match whatever their case and a trailing dot, wildcards cover subdomains only
        #expect(pins.covers(host: "api.example.com"))
        #expect(pins.covers(host: "API.Example.COM."))
        #expect(!pins.covers(host: "example.com"))
        #expect(!pins.covers(host: "www.api.example.com"))
        #expect(pins.covers(host: "img.cdn.example.com"))
        #expect(pins.covers(host: "a.b.cdn.example.com"))
        #expect(!pins.covers(host: "cdn.example.com"))
        #expect(!pins.covers(host: "evilcdn.example.com"))
    }

    @Test func anIPAddressIsCoveredByItsExactEntryOnly() throws {
        // Given an address pinned exactly, beside a wildcard over a name
        let pins = try PublicKeyPins(["127.0.0.1": Self.validPins, "*.example.com": Self.validPins])

        // Then the address is pinned, and no wildcard reaches another address, whatever its spelling
        #expect(pins.covers(host: "127.0.0.1"))
        #expect(!pins.covers(host: "10.0.0.1"))
        #expect(!pins.covers(host: "1.example.com.10"))
        #expect(pins.covers(host: "10.example.com"))
        for pattern in ["*.0.0.1", "*.1", "*.0x7f", "*.168.1.1"] {
            // A wildcard that could only ever cover addresses is refused, naming the pattern
            let error = #expect(throws: NetworkError.self, "\(pattern)") {
                try PublicKeyPins([pattern: Self.validPins])
            }
            #expect(error?.code == .pinning)
            #expect(error?.message.contains(pattern) == true)
        }
    }

    @Test func anExactEntryWinsOverAWildcard() throws {
        // Given a wildcard and a more specific exact entry with other pins
        let exact = [Data(repeating: 9, count: 32), Data(repeating: 8, count: 32)]
        let pins = try PublicKeyPins([
            "*.example.com": Self.validPins, "api.example.com": exact.map { $0.base64EncodedString() },
        ])

        // Then the exact entry's pins apply to its host, the wildcard's to the others
        #expect(pins.pins(forHost: "api.example.com") == Set(exact))
        #expect(
            pins.pins(forHost: "www.example.com")
                == Set(Self.validPins.compactMap { Data(base64Encoded: $0) }))
    }

    @Test func theErrorCodeHasAMessageForPeople() {
        // Given a pinning error, Then it has its own user message
        let error = NetworkError(code: .pinning, message: "x")
        #expect(error.userMessage.contains("secure"))
    }
}
