import Errand
import ErrandState
import Foundation

/// The product list: a `ListViewModel` that loads the catalog ten products a page.
@MainActor
final class CatalogScreen {
    /// Products per page.
    static let pageSize = 10

    let model: ListViewModel<Product>
    /// How many products the catalog holds, from the last page that answered.
    private(set) var total = 0

    /// A list that starts at page `firstPage` (1 for the first).
    init(dispatcher: any NetworkDispatcher, firstPage: Int = 1) {
        let size = Self.pageSize
        var owner: CatalogScreen?
        model = ListViewModel(pagination: .pages(size: size, firstPage: firstPage)) { query in
            let page = try await ListProducts(limit: size, skip: (query.page - 1) * size).execute(
                dispatcher: dispatcher)
            owner?.total = page.total
            return ListPage(page.products, hasMore: page.skip + page.products.count < page.total)
        }
        owner = self
    }

    /// Loads the first page, and returns its products.
    func load() async throws -> [Product] {
        await model.load().value
        return try result(since: 0)
    }

    /// Loads the next page, and returns only its products.
    func loadNextPage() async throws -> [Product] {
        let before = model.items.count
        await model.loadNextPage().value
        if let error = model.nextPageError { throw error }
        return try result(since: before)
    }

    private func result(since start: Int) throws -> [Product] {
        if case .failed(let error, _) = model.state { throw error }
        return Array(model.items.dropFirst(start))
    }
}
