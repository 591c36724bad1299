/// Which page a list asks for: its number, offset and size, or the cursor to continue from.
///
/// A list view model hands one to your request-making closure; use the fields your API takes:
///
/// ```swift
/// ListViewModel(pagination: .pages(size: 20)) { query in
///     GetUsers(page: query.page, perPage: query.limit ?? 20)
/// }
/// ListViewModel<Post>(pagination: .cursor, request: { query in
///     GetFeed(after: query.cursor)
/// }, page: { feed in ListPage(feed.posts, nextCursor: feed.next) })
/// ```
public struct PageQuery: Sendable, Hashable, CustomStringConvertible {
    /// Which page of this run it is: 0 for the first.
    public let index: Int
    /// The page number, counting from the strategy's first page (from 1 for cursors).
    public let page: Int
    /// How many items the pages before this one held.
    public let offset: Int
    /// How many items a page holds, for numbered pages; `nil` for cursors.
    public let limit: Int?
    /// The cursor the page before gave; `nil` for the first page.
    public let cursor: String?

    /// Creates a query; a list view model makes them for you.
    ///
    /// - Parameters:
    ///   - index: Which page of the run it is, from 0.
    ///   - page: The page number.
    ///   - offset: How many items came before.
    ///   - limit: The page size, if any.
    ///   - cursor: The cursor to continue from, if any.
    public init(index: Int, page: Int, offset: Int, limit: Int?, cursor: String?) {
        self.index = index
        self.page = page
        self.offset = offset
        self.limit = limit
        self.cursor = cursor
    }

    /// The page, offset, limit and cursor, for logs and test failures.
    public var description: String {
        "page \(page) (offset \(offset)" + (limit.map { ", limit \($0)" } ?? "")
            + (cursor.map { ", cursor \($0)" } ?? "") + ")"
    }
}
