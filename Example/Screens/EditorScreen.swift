import Errand
import ErrandState
import Foundation

/// The product editor: a `MutationViewModel` that adds, changes or deletes a product.
@MainActor
final class EditorScreen {
    /// What the editor can do.
    enum Edit: Sendable {
        case add(ProductDraft)
        case update(id: Int, ProductDraft)
        case delete(id: Int)
    }

    let model: MutationViewModel<Edit, Product>

    init(dispatcher: any NetworkDispatcher) {
        model = MutationViewModel { edit in
            switch edit {
            case .add(let draft): try await AddProduct(draft: draft).execute(dispatcher: dispatcher)
            case .update(let id, let draft):
                try await UpdateProduct(id: id, draft: draft).execute(dispatcher: dispatcher)
            case .delete(let id): try await DeleteProduct(id: id).execute(dispatcher: dispatcher)
            }
        }
    }

    /// Submits `edit`, and returns the product as the server answered it.
    func submit(_ edit: Edit) async throws -> Product {
        await model.submit(edit).value
        if let error = model.lastError { throw error }
        guard let product = model.lastResult else {
            throw NetworkError(code: .cancelled, message: "The change was not sent.")
        }
        return product
    }
}
