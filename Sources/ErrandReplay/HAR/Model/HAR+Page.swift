import Foundation

extension HAR {
    /// A page that a browser loaded; entries point to it through ``Entry/pageref``.
    ///
    /// Proxies and Errand record no pages. Browsers do, and the reader keeps them so that a
    /// browser export written back out still opens as pages in a HAR viewer.
    public struct Page: Sendable, Equatable {
        /// When the page load started.
        public var startedDateTime: Date
        /// The page's identifier, unique within the log.
        public var id: String
        /// The page's title.
        public var title: String
        /// When the page's content and the page itself finished loading.
        public var pageTimings: PageTimings
        /// A free comment.
        public var comment: String?

        /// Creates a page record.
        ///
        /// - Parameters:
        ///   - startedDateTime: When the page load started.
        ///   - id: The identifier entries refer to.
        ///   - title: The page's title.
        ///   - pageTimings: The page's load milestones.
        ///   - comment: A free comment.
        public init(
            startedDateTime: Date,
            id: String,
            title: String = "",
            pageTimings: PageTimings = PageTimings(),
            comment: String? = nil
        ) {
            self.startedDateTime = startedDateTime
            self.id = id
            self.title = title
            self.pageTimings = pageTimings
            self.comment = comment
        }
    }

    /// A page's load milestones, in milliseconds since the page load started.
    public struct PageTimings: Sendable, Equatable {
        /// When the content finished loading (`DOMContentLoaded`); `nil` when unknown.
        public var onContentLoad: Double?
        /// When the page finished loading (`load`); `nil` when unknown.
        public var onLoad: Double?
        /// A free comment.
        public var comment: String?

        /// Creates page timings.
        ///
        /// - Parameters:
        ///   - onContentLoad: Milliseconds until `DOMContentLoaded`, or `nil`.
        ///   - onLoad: Milliseconds until `load`, or `nil`.
        ///   - comment: A free comment.
        public init(onContentLoad: Double? = nil, onLoad: Double? = nil, comment: String? = nil) {
            self.onContentLoad = onContentLoad
            self.onLoad = onLoad
            self.comment = comment
        }
    }
}

extension HAR.Page: HARDecodable {
    private enum CodingKeys: String, CodingKey {
        case startedDateTime, id, title, pageTimings, comment
    }

    init(harFrom decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.startedDateTime = try container.harDate(forKey: .startedDateTime)
        self.id = container.harLenientString(forKey: .id) ?? ""
        self.title = container.harLenientString(forKey: .title) ?? ""
        self.pageTimings =
            (try? container.harValueIfPresent(HAR.PageTimings.self, forKey: .pageTimings))
            ?? HAR.PageTimings()
        self.comment = container.harLenientString(forKey: .comment)
    }
}

extension HAR.Page: HAREncodable {
    var harJSON: HARJSON {
        var object = HARJSONObject()
        object.add("startedDateTime", HARJSON.timestamp(startedDateTime))
        object.add("id", .string(id))
        object.add("title", .string(title))
        object.add("pageTimings", pageTimings.harJSON)
        object.add("comment", ifPresent: comment)
        return object.json
    }
}

extension HAR.PageTimings: HARDecodable {
    private enum CodingKeys: String, CodingKey {
        case onContentLoad, onLoad, comment
    }

    init(harFrom decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.onContentLoad = container.harMilliseconds(forKey: .onContentLoad)
        self.onLoad = container.harMilliseconds(forKey: .onLoad)
        self.comment = container.harLenientString(forKey: .comment)
    }
}

extension HAR.PageTimings: HAREncodable {
    var harJSON: HARJSON {
        var object = HARJSONObject()
        object.add("onContentLoad", .number(onContentLoad ?? -1))
        object.add("onLoad", .number(onLoad ?? -1))
        object.add("comment", ifPresent: comment)
        return object.json
    }
}
