import Foundation

extension HAR {
    /// The `log` object of a HAR file: who recorded it, its pages and its entries.
    ///
    /// Reading is lenient: a missing `version` reads as `"1.2"`, a missing `creator` as an empty
    /// one and missing `pages` as none. Writing always emits version `1.2`.
    public struct Log: Sendable, Equatable {
        /// The HAR format version found in the file; the writer always writes `1.2`.
        public var version: String
        /// The application that recorded the traffic.
        public var creator: Creator
        /// The browser that made the requests, when a browser recorded them.
        public var browser: Creator?
        /// The pages the entries belong to; empty for most proxies and for Errand.
        public var pages: [Page]
        /// The recorded exchanges, in recorded order.
        public var entries: [Entry]
        /// A free comment from the user or the recording application.
        public var comment: String?

        /// Creates a log.
        ///
        /// - Parameters:
        ///   - version: The HAR version; the writer always writes `1.2`.
        ///   - creator: The application that recorded the traffic.
        ///   - browser: The browser that made the requests, if any.
        ///   - pages: The pages the entries refer to.
        ///   - entries: The recorded exchanges, in recorded order.
        ///   - comment: A free comment.
        public init(
            version: String = "1.2",
            creator: Creator,
            browser: Creator? = nil,
            pages: [Page] = [],
            entries: [Entry] = [],
            comment: String? = nil
        ) {
            self.version = version
            self.creator = creator
            self.browser = browser
            self.pages = pages
            self.entries = entries
            self.comment = comment
        }
    }

    /// The name and version of an application: the HAR `creator` and `browser` objects.
    public struct Creator: Sendable, Equatable {
        /// The application's name, such as `"mitmproxy"` or `"Errand"`.
        public var name: String
        /// The application's version.
        public var version: String
        /// A free comment.
        public var comment: String?

        /// Creates a creator record.
        ///
        /// - Parameters:
        ///   - name: The application's name.
        ///   - version: The application's version.
        ///   - comment: A free comment.
        public init(name: String, version: String, comment: String? = nil) {
            self.name = name
            self.version = version
            self.comment = comment
        }
    }
}

extension HAR.Log: HARDecodable {
    private enum CodingKeys: String, CodingKey {
        case version, creator, browser, pages, entries, comment
    }

    init(harFrom decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.version = container.harLenientString(forKey: .version) ?? "1.2"
        self.creator =
            (try? container.harValueIfPresent(HAR.Creator.self, forKey: .creator))
            ?? HAR.Creator(name: "", version: "")
        self.browser = try? container.harValueIfPresent(HAR.Creator.self, forKey: .browser)
        self.pages = container.harLenientArray(HAR.Page.self, forKey: .pages)
        self.entries = try container.harArray(HAR.Entry.self, forKey: .entries)
        self.comment = container.harLenientString(forKey: .comment)
    }
}

extension HAR.Log: HAREncodable {
    var harJSON: HARJSON {
        var object = HARJSONObject()
        object.add("version", .string("1.2"))
        object.add("creator", creator.harJSON)
        if let browser {
            object.add("browser", browser.harJSON)
        }
        if !pages.isEmpty {
            object.add("pages", .array(pages.map(\.harJSON)))
        }
        object.add("entries", .array(entries.map(\.harJSON)))
        object.add("comment", ifPresent: comment)
        return object.json
    }
}

extension HAR.Creator: HARDecodable {
    private enum CodingKeys: String, CodingKey {
        case name, version, comment
    }

    init(harFrom decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.name = container.harLenientString(forKey: .name) ?? ""
        self.version = container.harLenientString(forKey: .version) ?? ""
        self.comment = container.harLenientString(forKey: .comment)
    }
}

extension HAR.Creator: HAREncodable {
    var harJSON: HARJSON {
        var object = HARJSONObject()
        object.add("name", .string(name))
        object.add("version", .string(version))
        object.add("comment", ifPresent: comment)
        return object.json
    }
}
