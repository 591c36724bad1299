import Foundation

extension HAR {
    /// One recorded exchange: a request, its response, and when and how long it took.
    ///
    /// A failed exchange (the connection was refused, timed out, was reset) is kept as an entry
    /// whose response has status `0` and an ``Response/error``, as Chrome writes it with
    /// `_error`; see ``isFailure``.
    public struct Entry: Sendable, Equatable {
        /// The ``Page/id`` of the page this entry belongs to, if any.
        public var pageref: String?
        /// When the request started. Written in UTC with millisecond precision.
        public var startedDateTime: Date
        /// The total time of the exchange in milliseconds.
        public var time: Double
        /// The request that was sent.
        public var request: Request
        /// The response that came back, or the failure (status `0`).
        public var response: Response
        /// What the browser cache held; usually empty.
        public var cache: Cache
        /// How long each phase took.
        public var timings: Timings
        /// The IP address of the server, if recorded.
        public var serverIPAddress: String?
        /// An identifier of the connection, if recorded.
        public var connection: String?
        /// A free comment.
        public var comment: String?

        /// Creates an entry.
        ///
        /// - Parameters:
        ///   - pageref: The page this entry belongs to, if any.
        ///   - startedDateTime: When the request started.
        ///   - time: The total time in milliseconds; `nil` takes ``Timings/total``.
        ///   - request: The request that was sent.
        ///   - response: The response, or a status `0` failure.
        ///   - cache: The browser cache state; empty by default.
        ///   - timings: The phases of the exchange.
        ///   - serverIPAddress: The server's IP address, if known.
        ///   - connection: A connection identifier, if known.
        ///   - comment: A free comment.
        public init(
            pageref: String? = nil,
            startedDateTime: Date,
            time: Double? = nil,
            request: Request,
            response: Response,
            cache: Cache = Cache(),
            timings: Timings = Timings(),
            serverIPAddress: String? = nil,
            connection: String? = nil,
            comment: String? = nil
        ) {
            self.pageref = pageref
            self.startedDateTime = startedDateTime
            self.time = time ?? timings.total
            self.request = request
            self.response = response
            self.cache = cache
            self.timings = timings
            self.serverIPAddress = serverIPAddress
            self.connection = connection
            self.comment = comment
        }

        /// Creates an entry from parts it takes over, without copying them: a recorder makes one
        /// on every exchange.
        package init(
            startedDateTime: Date, time: Double, request: consuming Request, response: consuming Response,
            timings: Timings
        ) {
            self.pageref = nil
            self.startedDateTime = startedDateTime
            self.time = time
            self.request = request
            self.response = response
            self.cache = Cache()
            self.timings = timings
            self.serverIPAddress = nil
            self.connection = nil
            self.comment = nil
        }

        /// Whether the exchange failed before a response arrived: status `0` or an error recorded.
        public var isFailure: Bool {
            response.status == 0 || response.error != nil
        }
    }
}

extension HAR.Entry: HARDecodable {
    private enum CodingKeys: String, CodingKey {
        case pageref, startedDateTime, time, request, response, cache, timings
        case serverIPAddress, connection, comment
        case error = "_error"
    }

    init(harFrom decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.pageref = container.harLenientString(forKey: .pageref)
        self.startedDateTime = try container.harDate(forKey: .startedDateTime)
        self.request = try container.harValue(HAR.Request.self, forKey: .request)
        var response = try container.harValue(HAR.Response.self, forKey: .response)
        if response.error == nil {
            // Chrome writes `_error` in the response; some tools write it on the entry.
            response.error = container.harLenientString(forKey: .error)
        }
        self.response = response
        self.cache = (try? container.harValueIfPresent(HAR.Cache.self, forKey: .cache)) ?? HAR.Cache()
        self.timings =
            (try? container.harValueIfPresent(HAR.Timings.self, forKey: .timings)) ?? HAR.Timings()
        self.time = HARNumbers.finite(container.harLenientNumber(forKey: .time) ?? timings.total)
        self.serverIPAddress = container.harLenientString(forKey: .serverIPAddress)
        self.connection = container.harLenientString(forKey: .connection)
        self.comment = container.harLenientString(forKey: .comment)
    }
}

extension HAR.Entry: HAREncodable {
    var harJSON: HARJSON {
        var object = HARJSONObject()
        object.add("pageref", ifPresent: pageref)
        object.add("startedDateTime", HARJSON.timestamp(startedDateTime))
        object.add("time", .number(time))
        object.add("request", request.harJSON)
        object.add("response", response.harJSON)
        object.add("cache", cache.harJSON)
        object.add("timings", timings.harJSON)
        object.add("serverIPAddress", ifPresent: serverIPAddress)
        object.add("connection", ifPresent: connection)
        object.add("comment", ifPresent: comment)
        return object.json
    }
}
