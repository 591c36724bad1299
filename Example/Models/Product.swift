import Foundation

/// A product of the catalog, as the API describes it.
struct Product: Codable, Hashable, Sendable {
    let id: Int
    let title: String
    let description: String?
    let category: String?
    let price: Decimal
    let rating: Double?
    let stock: Int?
    let brand: String?
    /// Set by the server on the answer to a delete.
    let isDeleted: Bool?
}

/// One page of products: the API's `{"products": [...], "total", "skip", "limit"}`.
struct ProductPage: Codable, Hashable, Sendable {
    let products: [Product]
    let total: Int
    let skip: Int
    let limit: Int
}

/// The fields sent to create a product, or to change one (only the fields given are sent).
struct ProductDraft: Codable, Hashable, Sendable {
    var title: String?
    var price: Decimal?
    var category: String? = nil
}
