import Foundation
import Testing

@testable import Errand

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The pin decision of a server trust challenge, `PublicKeyPins.answer(host:systemTrusted:chain:)`,
/// on real certificate chains: the whole of what Apple platforms decide, run everywhere.
@Suite struct PinningServerTrustTests {
    /// Pins for `chain.example.com`'s leaf key and an offline backup.
    static func leafPins(_ host: String = "chain.example.com") throws -> PublicKeyPins {
        try PublicKeyPins([host: [CertificateFixture.chainLeaf.expectedPin, CertificateFixture.backupPin]])
    }

    @Test func aTrustedChainWithThePinnedLeafIsAccepted() throws {
        // Given pins for the leaf's key, When the system trusted the chain that carries it
        let answer = try Self.leafPins().answer(
            host: "chain.example.com", systemTrusted: true, chain: try CertificateFixture.chain())

        // Then the server's trust is used
        #expect(answer.isUseServerTrust)
    }

    @Test(arguments: [CertificateFixture.chainIntermediate, .chainRoot])
    func aPinOnTheIntermediateOrRootAcceptsTheChain(pinned: CertificateFixture) throws {
        // Given pins for a CA's key only (so that the leaf may be replaced without an app update)
        let pins = try PublicKeyPins([
            "chain.example.com": [pinned.expectedPin, CertificateFixture.backupPin]
        ])

        // When the system trusted a chain whose leaf is not pinned but whose CA is
        let answer = pins.answer(
            host: "chain.example.com", systemTrusted: true, chain: try CertificateFixture.chain())

        // Then it is accepted: any certificate of the evaluated chain may carry the pinned key
        #expect(answer.isUseServerTrust)
    }

    @Test func aTrustedChainWithoutAPinnedKeyIsCancelledNamingTheHost() throws {
        // Given pins for keys the server does not have
        let pins = try PublicKeyPins([
            "chain.example.com": [CertificateFixture.p384.expectedPin, CertificateFixture.backupPin]
        ])

        // When the system trusted the server's chain
        let answer = pins.answer(
            host: "chain.example.com", systemTrusted: true, chain: try CertificateFixture.chain())

        // Then the challenge is cancelled with `pinning`, naming the host and the chain's length
        let refusal = try #require(answer.refusal)
        #expect(refusal.code == .pinning)
        #expect(refusal.message.contains("chain.example.com"))
        #expect(refusal.message.contains("3 certificate(s)"))
    }

    @Test func aChainTheSystemRejectedKeepsDefaultHandling() throws {
        // Given pins that the chain matches, When the system did not trust the chain
        let answer = try Self.leafPins().answer(
            host: "chain.example.com", systemTrusted: false, chain: try CertificateFixture.chain())

        // Then the system's own handling fails it, with its TLS error; pins never widen trust
        #expect(answer.isPerformDefaultHandling)
        #expect(
            try Self.leafPins().answer(host: "chain.example.com", systemTrusted: false, chain: nil)
                .isPerformDefaultHandling)
    }

    @Test(arguments: [nil, []] as [[Data]?])
    func aTrustedChainThatCannotBeReadIsCancelled(chain: [Data]?) throws {
        // Given a pinned host whose chain the system trusted but that could not be copied
        let answer = try Self.leafPins().answer(host: "chain.example.com", systemTrusted: true, chain: chain)

        // Then it is refused: default handling would accept it without looking at the pins
        let refusal = try #require(answer.refusal)
        #expect(refusal.code == .pinning)
        #expect(refusal.message.contains("chain.example.com"))
    }

    @Test func aHostThePinsDoNotCoverKeepsDefaultHandling() throws {
        // Given pins for one host, When another host's chain is checked, trusted or not
        let pins = try Self.leafPins()
        let chain = [try CertificateFixture.p256.der()]

        // Then its chain is left to the system
        #expect(
            pins.answer(host: "other.example.com", systemTrusted: true, chain: chain).isPerformDefaultHandling
        )
        #expect(
            pins.answer(host: "other.example.com", systemTrusted: true, chain: nil).isPerformDefaultHandling)
        #expect(pins.answer(host: "example.com", systemTrusted: false, chain: []).isPerformDefaultHandling)
    }

    @Test(arguments: [
        ("bücher.example", "xn--bcher-kva.example"), ("xn--bcher-kva.example", "BÜCHER.example."),
        ("api.example.com", "API.EXAMPLE.COM."), ("*.example.com", "a.b.Example.com."),
        ("127.0.0.1", "127.1"), ("[2001:db8::1]", "2001:DB8:0::1"),
    ])
    func everySpellingOfAPinnedHostIsChecked(pinned: String, connected: String) throws {
        // Given pins written in one spelling, for keys the server does not have
        let pins = try PublicKeyPins([
            pinned: [CertificateFixture.p256.expectedPin, CertificateFixture.backupPin]
        ])
        let matching = [try CertificateFixture.p256.der()]
        let other = [try CertificateFixture.ed25519.der()]

        // When the host is written another way, Then its pins apply: a match is accepted, a mismatch refused
        #expect(pins.answer(host: connected, systemTrusted: true, chain: matching).isUseServerTrust)
        #expect(pins.answer(host: connected, systemTrusted: true, chain: other).refusal?.code == .pinning)
        #expect(pins.answer(host: connected, systemTrusted: true, chain: nil).refusal?.code == .pinning)
    }

    @Test func hostileCertificatesInTheChainNeverMatchNorCrash() throws {
        // Given a pinned host, and a chain of hostile DER around (or without) the pinned certificate
        let pins = try Self.leafPins()
        let leaf = try CertificateFixture.chainLeaf.der()
        let hostile: [Data] = [
            Data(), Data([0x30]), Data([0x30, 0x84, 0xff, 0xff, 0xff, 0xff]), Data([0x30, 0x80, 0, 0]),
            leaf.prefix(leaf.count - 1), leaf + [0], Data("\r\n\u{1B}]0;pinned\u{07}".utf8),
        ]

        // When the system trusted them, Then the pinned certificate alone decides
        #expect(
            pins.answer(host: "chain.example.com", systemTrusted: true, chain: hostile + [leaf])
                .isUseServerTrust)
        let refusal = pins.answer(host: "chain.example.com", systemTrusted: true, chain: hostile).refusal
        #expect(refusal?.code == .pinning)
        #expect(refusal?.message.contains("\(hostile.count) certificate(s)") == true)
    }

    @Test(arguments: [
        "chain.example.com\r\nX-Injected: 1", "chain.example.com\u{1B}[2J", "chain.example.com\0",
    ])
    func aHostileHostIsNeverAcceptedAndIsEscapedInTheError(host: String) throws {
        // Given a pinned host, When a challenge names it with control characters after it
        let pins = try Self.leafPins()
        let answer = pins.answer(host: host, systemTrusted: true, chain: [try CertificateFixture.p256.der()])

        // Then it is not accepted, and any refusal's message carries no control character
        #expect(!answer.isUseServerTrust)
        let controls = answer.refusal?.message.unicodeScalars.filter {
            $0.properties.generalCategory == .control
        }
        #expect(controls?.isEmpty ?? true)
    }

    @Test func theDelegateTurnsAnswersIntoDispositionsAndKeepsTheRefusalOnce() throws {
        // Given the delegate of a session with pins, and a refusal
        let delegate = ChallengeDelegate(pins: try Self.leafPins())
        let refusal = NetworkError.pinMismatch(host: "chain.example.com", certificates: 2)

        // When each answer is settled for a task
        #expect(delegate.settle(.performDefaultHandling, forTask: 1) == .performDefaultHandling)
        #expect(delegate.settle(.useServerTrust, forTask: 2) == .useCredential)
        #expect(delegate.settle(.cancel(refusal), forTask: 3) == .cancelAuthenticationChallenge)

        // Then only the cancelled task has a refusal, handed out once
        #expect(delegate.takeRefusal(forTask: 1) == nil)
        #expect(delegate.takeRefusal(forTask: 2) == nil)
        #expect(delegate.takeRefusal(forTask: 3)?.message == refusal.message)
        #expect(delegate.takeRefusal(forTask: 3) == nil)
    }
}

extension ServerTrustAnswer {
    var isPerformDefaultHandling: Bool {
        if case .performDefaultHandling = self { true } else { false }
    }

    var isUseServerTrust: Bool {
        if case .useServerTrust = self { true } else { false }
    }

    /// The refusal of a cancelled challenge.
    var refusal: NetworkError? {
        if case .cancel(let error) = self { error } else { nil }
    }
}
