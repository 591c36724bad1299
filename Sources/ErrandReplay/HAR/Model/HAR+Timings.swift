import Foundation

extension HAR {
    /// How long each phase of an exchange took, in milliseconds: the HAR `timings` object.
    ///
    /// The optional phases (`blocked`, `dns`, `connect`, `ssl`) are `nil` when they did not
    /// apply; files write that as `-1`, and the reader turns any negative value or a missing
    /// field back into `nil`. The required phases (`send`, `wait`, `receive`) read as `0` when
    /// an exporter left them out or wrote a negative value (as some do for failed requests).
    public struct Timings: Sendable, Equatable {
        /// Time spent in a queue waiting for a network connection, or `nil`.
        public var blocked: Double?
        /// Time spent resolving the host name, or `nil`.
        public var dns: Double?
        /// Time spent creating the TCP connection (including `ssl`), or `nil`.
        public var connect: Double?
        /// Time spent sending the request.
        public var send: Double
        /// Time spent waiting for the first byte of the response.
        public var wait: Double
        /// Time spent reading the response.
        public var receive: Double
        /// Time spent on the TLS handshake, or `nil`.
        public var ssl: Double?
        /// A free comment.
        public var comment: String?

        /// Creates timings.
        ///
        /// - Parameters:
        ///   - blocked: Queueing time, or `nil` when it did not apply.
        ///   - dns: Name resolution time, or `nil`.
        ///   - connect: Connection time, or `nil`.
        ///   - send: Time to send the request.
        ///   - wait: Time to the first response byte.
        ///   - receive: Time to read the response.
        ///   - ssl: TLS handshake time, or `nil`.
        ///   - comment: A free comment.
        public init(
            blocked: Double? = nil,
            dns: Double? = nil,
            connect: Double? = nil,
            send: Double = 0,
            wait: Double = 0,
            receive: Double = 0,
            ssl: Double? = nil,
            comment: String? = nil
        ) {
            self.blocked = blocked
            self.dns = dns
            self.connect = connect
            self.send = send
            self.wait = wait
            self.receive = receive
            self.ssl = ssl
            self.comment = comment
        }

        /// The sum of the phases that applied, which HAR defines as the entry's total time.
        ///
        /// `ssl` is not added, because HAR counts it inside `connect`.
        public var total: Double {
            [blocked, dns, connect].reduce(send + wait + receive) { $0 + ($1 ?? 0) }
        }
    }
}

extension HAR.Timings: HARDecodable {
    private enum CodingKeys: String, CodingKey {
        case blocked, dns, connect, send, wait, receive, ssl, comment
    }

    init(harFrom decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.blocked = container.harMilliseconds(forKey: .blocked)
        self.dns = container.harMilliseconds(forKey: .dns)
        self.connect = container.harMilliseconds(forKey: .connect)
        self.send = container.harMilliseconds(forKey: .send) ?? 0
        self.wait = container.harMilliseconds(forKey: .wait) ?? 0
        self.receive = container.harMilliseconds(forKey: .receive) ?? 0
        self.ssl = container.harMilliseconds(forKey: .ssl)
        self.comment = container.harLenientString(forKey: .comment)
    }
}

extension HAR.Timings: HAREncodable {
    var harJSON: HARJSON {
        var object = HARJSONObject()
        object.add("blocked", .number(blocked ?? -1))
        object.add("dns", .number(dns ?? -1))
        object.add("connect", .number(connect ?? -1))
        object.add("send", .number(send))
        object.add("wait", .number(wait))
        object.add("receive", .number(receive))
        object.add("ssl", .number(ssl ?? -1))
        object.add("comment", ifPresent: comment)
        return object.json
    }
}
