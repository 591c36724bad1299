import Errand
import ErrandState
import Foundation

/// One product's page: a `NetworkViewModel` that loads it.
@MainActor
final class ProductScreen {
    let model: NetworkViewModel<Product>

    init(id: Int, dispatcher: any NetworkDispatcher) {
        model = NetworkViewModel(GetProduct(id: id), dispatcher: dispatcher)
    }

    /// Loads the product.
    func load() async throws -> Product {
        await model.load().value
        if let error = model.state.error { throw error }
        guard let product = model.value else {
            throw NetworkError(code: .cancelled, message: "The product did not load.")
        }
        return product
    }
}
