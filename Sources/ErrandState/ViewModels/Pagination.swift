/// How a list asks for its pages: by page number and offset, or by the cursor the server gave.
///
/// - ``pages(size:firstPage:)``: page `n` is asked for with ``PageQuery/page`` `n` (or
///   ``PageQuery/offset`` `(n - firstPage) * size` and ``PageQuery/limit`` `size`, for APIs
///   that take an offset). The list ends at a page with fewer than `size` items, unless the
///   page says itself whether more follow (``ListPage/hasMore``).
/// - ``cursor``: the first page is asked for without a cursor, each next one with the
///   ``ListPage/nextCursor`` of the page before. The list ends at a page without a next cursor.
public enum Pagination: Sendable, Hashable {
    /// Numbered pages of `size` items, the first one numbered `firstPage`.
    case pages(size: Int, firstPage: Int = 1)
    /// Pages linked by the cursor each page gives for the next one.
    case cursor

    /// The query for the first page.
    var firstQuery: PageQuery {
        switch self {
        case .pages(let size, let firstPage):
            PageQuery(index: 0, page: firstPage, offset: 0, limit: max(size, 1), cursor: nil)
        case .cursor:
            PageQuery(index: 0, page: 1, offset: 0, limit: nil, cursor: nil)
        }
    }

    /// The query after `query`, whose answer was `page`, or `nil` when `page` was the last.
    func query<Item>(after query: PageQuery, answered page: ListPage<Item>) -> PageQuery? {
        let offset = query.offset + page.items.count
        switch self {
        case .pages(let size, _):
            let more = page.hasMore ?? (page.items.count >= max(size, 1))
            guard more, !page.items.isEmpty else { return nil }
            return PageQuery(
                index: query.index + 1, page: query.page + 1, offset: offset, limit: query.limit,
                cursor: page.nextCursor)
        case .cursor:
            guard let cursor = page.nextCursor, page.hasMore ?? true else { return nil }
            return PageQuery(
                index: query.index + 1, page: query.page + 1, offset: offset, limit: nil, cursor: cursor)
        }
    }
}
