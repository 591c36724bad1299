/// One page of a list as the server sent it: its items, and what it says about the next page.
///
/// When the API answers with a bare array, the list view model makes the page for you; when it
/// answers with an envelope, your `page` closure builds one from it.
public struct ListPage<Item> {
    /// The items on this page.
    public var items: [Item]
    /// The cursor to ask for the next page with, for cursor pagination.
    public var nextCursor: String?
    /// Whether more pages follow, when the server says; `nil` lets the strategy decide.
    public var hasMore: Bool?

    /// Creates a page.
    ///
    /// - Parameters:
    ///   - items: The items on the page.
    ///   - nextCursor: The cursor for the next page, if the API uses cursors.
    ///   - hasMore: Whether more pages follow, when the server says.
    public init(_ items: [Item], nextCursor: String? = nil, hasMore: Bool? = nil) {
        self.items = items
        self.nextCursor = nextCursor
        self.hasMore = hasMore
    }
}

extension ListPage: Sendable where Item: Sendable {}
extension ListPage: Equatable where Item: Equatable {}
