import Foundation
import Testing

@testable import Errand

/// The SHA-256 behind public-key pins, against the FIPS 180-4 examples, and the HMAC-SHA256
/// behind the disk cache's keyed digests, against RFC 4231's.
@Suite struct SHA256Tests {
    @Test(arguments: [
        ("", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"),
        ("abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"),
        (
            "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq",
            "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"
        ),
        (
            "abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmnoijklmnopjklmnopqklmnopqrlmnopqrsmnopqrstnopqrstu",
            "cf5b16a778af8380036ce59e7b0492370b249b11e8f07a51afac45037afee9d1"
        ),
    ])
    func hashesTheStandardVectors(message: String, expected: String) {
        // Given a message, When it is hashed, Then the digest is the published one
        #expect(Self.hex(SHA256.hash(Data(message.utf8))) == expected)
    }

    @Test func hashesAMillionAs() {
        // Given a message of many blocks
        let message = Data(repeating: UInt8(ascii: "a"), count: 1_000_000)

        // When it is hashed, Then the digest is the published one
        #expect(
            Self.hex(SHA256.hash(message))
                == "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")
    }

    @Test func padsEveryLengthAroundABlockBoundary() throws {
        // Given messages of 55 to 65 bytes (one or two padding blocks)
        for length in 55...65 {
            let message = Data(repeating: 0x61, count: length)

            // When hashed, Then each matches openssl's digest
            let expected = try OpenSSL.run("printf '%\(length)s' '' | tr ' ' 'a' | openssl dgst -sha256 -r")
            #expect(Self.hex(SHA256.hash(message)) == String(expected.prefix(64)), "length \(length)")
        }
    }

    @Test(arguments: [
        (
            Data(repeating: 0x0b, count: 20), Data("Hi There".utf8),
            "b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7"
        ),
        (
            Data("Jefe".utf8), Data("what do ya want for nothing?".utf8),
            "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843"
        ),
        (
            Data(repeating: 0xaa, count: 20), Data(repeating: 0xdd, count: 50),
            "773ea91e36800e46854db8ebd09181a72959098b3ef8c122d9635514ced565fe"
        ),
        (
            Data(repeating: 0xaa, count: 131),
            Data("Test Using Larger Than Block-Size Key - Hash Key First".utf8),
            "60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54"
        ),
        (
            Data(repeating: 0x6b, count: 64), Data("exactly one block of key".utf8),
            "baa93ea4ccc7062ed6870c5e7937dbd35ad7791df4e29df9addeb429ff491acf"
        ),
    ])
    func hmacGivesTheStandardVectors(key: Data, message: Data, expected: String) {
        // Given a key and a message (short, one block, longer than a block),
        // When they are digested, Then the digest is the published one
        #expect(Self.hex(SHA256.hmac(key: key, message: message)) == expected)
    }

    static func hex(_ data: Data) -> String {
        data.map { String(format: "%02x", $0) }.joined()
    }
}
