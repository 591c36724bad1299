import ErrandTestSupport
import Foundation
import Testing

@testable import Errand

/// `PublicKeyPins.pin(ofCertificate:)` on real certificates of every key type, checked against
/// the pins openssl computed for them, and on hostile DER built from them.
@Suite struct PinningCertificateTests {
    @Test(arguments: CertificateFixture.allCases)
    func computesOpenSSLsPinForEveryKeyType(fixture: CertificateFixture) throws {
        // Given a certificate openssl made, and the pin openssl computed for its key
        let certificate = try fixture.der()
        #expect(certificate.count == fixture.size)

        // When its pin is computed
        let pin = try PublicKeyPins.pin(ofCertificate: certificate)

        // Then it is openssl's
        #expect(pin == fixture.expectedPin)
    }

    @Test func everyKeyTypeHasItsOwnPin() {
        // Given the fixtures' pins, Then no two keys share one (the fixtures are not copies)
        #expect(
            Set(CertificateFixture.allCases.map(\.expectedPin)).count == CertificateFixture.allCases.count)
    }

    @Test(arguments: [CertificateFixture.rsa4096, .ed25519, .p256Version1, .chainLeaf])
    func refusesEveryTruncationWithoutCrashing(fixture: CertificateFixture) throws {
        // Given a real certificate
        let bytes = [UInt8](try fixture.der())

        // When every strict prefix of it is read, Then each is refused with `pinning`
        for length in 0..<bytes.count {
            let error = #expect(throws: NetworkError.self, "\(length) of \(bytes.count) bytes") {
                try PublicKeyPins.pin(ofCertificate: Data(bytes[0..<length]))
            }
            #expect(error?.code == .pinning)
        }
    }

    @Test(arguments: CertificateFixture.allCases)
    func refusesTrailingBytesAndPEM(fixture: CertificateFixture) throws {
        // Given a real certificate with a byte after it, and the same certificate as PEM text
        let certificate = try fixture.der()
        let pem = Data(
            ("-----BEGIN CERTIFICATE-----\n"
                + certificate.base64EncodedString(options: .lineLength64Characters)
                + "\n-----END CERTIFICATE-----\n").utf8)

        // Then neither is read as DER
        for bytes in [certificate + [0], certificate + [0x30, 0x00], pem] {
            #expect(throws: NetworkError.self) { try PublicKeyPins.pin(ofCertificate: bytes) }
        }
    }

    @Test(arguments: CertificateFixture.allCases)
    func refusesHugeLengthFieldsInARealCertificate(fixture: CertificateFixture) throws {
        // Given a real certificate whose outer or inner length is replaced by a huge one
        let certificate = try fixture.der()
        let spliced: [[UInt8]] = [
            [0x30, 0x84, 0xff, 0xff, 0xff, 0xff] + Self.contents(of: certificate),
            [0x30, 0x84, 0x7f, 0xff, 0xff, 0xff] + Self.contents(of: certificate),
            [0x30, 0x88, 0, 0, 0, 0, 0, 0, 0x01, 0x00] + Self.contents(of: certificate),
            [0x30, 0x80] + Self.contents(of: certificate) + [0, 0],
            Self.der(
                0x30,
                [0x30, 0x84, 0xff, 0xff, 0xff, 0xfe] + Self.contents(of: Self.contents(of: certificate))),
        ]

        // Then each is refused, never read past its end
        for bytes in spliced {
            let error = #expect(throws: NetworkError.self) {
                try PublicKeyPins.pin(ofCertificate: Data(bytes))
            }
            #expect(error?.code == .pinning)
        }
    }

    @Test(arguments: CertificateFixture.allCases)
    func refusesACertificateWhoseKeyInfoIsCut(fixture: CertificateFixture) throws {
        // Given a real certificate rebuilt with its SubjectPublicKeyInfo cut in three ways
        let whole = try #require(Self.elements(of: try fixture.der()).first)
        let parts = Self.elements(of: whole.contents)
        let tbs = try #require(parts.first)
        let signature = parts.dropFirst().flatMap { [UInt8]($0.encoded) }
        let fields = Self.elements(of: tbs.contents)
        // The key info follows the version (if any), serial, signature, issuer, validity, subject.
        let keyIndex = fields.first?.tag == 0xa0 ? 6 : 5
        let key = try #require(fields.indices.contains(keyIndex) ? fields[keyIndex] : nil)
        let before = fields[..<keyIndex].flatMap { [UInt8]($0.encoded) }
        let after = fields[(keyIndex + 1)...].flatMap { [UInt8]($0.encoded) }
        let keyParts = Self.elements(of: key.contents)
        try #require(keyParts.count == 2)
        let algorithm = [UInt8](keyParts[0].encoded)
        let bitString = [UInt8](keyParts[1].encoded)
        let cuts: [[UInt8]] = [
            // the algorithm alone, no key
            Self.der(0x30, algorithm),
            // the key's BIT STRING claiming more than is left
            Self.der(0x30, algorithm + bitString.dropLast(1)),
            // the key info element itself claiming more than the certificate holds
            [0x30, 0x82, 0xff, 0xff] + algorithm + bitString,
        ]

        for cut in cuts {
            // When the certificate is rebuilt around it
            let rebuilt = Self.der(0x30, Self.der(0x30, before + cut + after) + signature)

            // Then it is refused with `pinning`
            let error = #expect(throws: NetworkError.self) {
                try PublicKeyPins.pin(ofCertificate: Data(rebuilt))
            }
            #expect(error?.code == .pinning)
        }
        // And the same rebuilding, uncut, gives openssl's pin: the cuts are all that differ
        let uncut = Self.der(0x30, Self.der(0x30, before + [UInt8](key.encoded) + after) + signature)
        #expect(try PublicKeyPins.pin(ofCertificate: Data(uncut)) == fixture.expectedPin)
    }

    @Test func refusesGarbageWithoutCrashing() {
        // Given many random byte strings, some opening like a certificate
        var random = SplitMix64(seed: 0x5eed_0f_de12)
        for round in 0..<2_000 {
            let count = Int.random(in: 0..<96, using: &random)
            var bytes = (0..<count).map { _ in UInt8.random(in: 0...255, using: &random) }
            if round.isMultiple(of: 2), !bytes.isEmpty { bytes[0] = 0x30 }

            // When each is pinned, Then it is refused (or, by chance, read), never a crash
            _ = try? PublicKeyPins.pin(ofCertificate: Data(bytes))
        }
    }

    @Test(arguments: CertificateFixture.allCases)
    func flippedBytesGiveAnErrorOrAPinNeverACrash(fixture: CertificateFixture) throws {
        // Given a real certificate with each byte in turn flipped
        let bytes = [UInt8](try fixture.der())
        for index in bytes.indices {
            var corrupt = bytes
            corrupt[index] ^= 0xff

            // When it is pinned, Then it gives an error or some pin
            _ = try? PublicKeyPins.pin(ofCertificate: Data(corrupt))
        }
    }

    /// A DER element with `tag` and `contents`, in the shortest length form.
    static func der(_ tag: UInt8, _ contents: [UInt8]) -> [UInt8] {
        let count = contents.count
        let length: [UInt8] =
            switch count {
            case ..<0x80: [UInt8(count)]
            case ..<0x100: [0x81, UInt8(count)]
            default: [0x82, UInt8(count >> 8), UInt8(count & 0xff)]
            }
        return [tag] + length + contents
    }

    /// The elements `data` holds, one after the other, as far as they can be read.
    static func elements(of data: Data) -> [DERReader.Element] {
        var reader = DERReader(data)
        var elements: [DERReader.Element] = []
        while let element = reader.next() { elements.append(element) }
        return elements
    }

    /// The contents of the one element `data` holds.
    static func contents(of data: Data) -> [UInt8] {
        var reader = DERReader(data)
        return [UInt8](reader.next()?.contents ?? Data())
    }

    static func contents(of bytes: [UInt8]) -> [UInt8] {
        contents(of: Data(bytes))
    }
}
