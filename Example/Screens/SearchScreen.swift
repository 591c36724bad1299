import Errand
import ErrandState
import Foundation

/// The search box: a `SearchViewModel` over `/products/search`.
@MainActor
final class SearchScreen {
    let model: SearchViewModel<ProductPage, ContinuousClock>

    init(dispatcher: any NetworkDispatcher) {
        model = SearchViewModel(dispatcher: dispatcher) { text in
            SearchProducts(text: text, limit: CatalogScreen.pageSize)
        }
    }

    /// Types `text` and presses return: the search runs at once, without the debounce.
    func search(_ text: String) async throws -> ProductPage {
        model.query = text
        await model.submit().value
        if let error = model.state.error { throw error }
        return model.results ?? ProductPage(products: [], total: 0, skip: 0, limit: CatalogScreen.pageSize)
    }
}
