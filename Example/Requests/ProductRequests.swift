import Errand
import Foundation

/// A page of the catalog: `GET /products?limit=&skip=`.
struct ListProducts: RequestType {
    typealias ResponseType = ProductPage
    let limit: Int
    let skip: Int
    var data: RequestData { .get("/products").query("limit", "\(limit)").query("skip", "\(skip)") }
}

/// Products whose title or description holds `text`: `GET /products/search?q=`.
struct SearchProducts: RequestType {
    typealias ResponseType = ProductPage
    let text: String
    let limit: Int
    var data: RequestData {
        .get("/products/search").query("q", text).query("limit", "\(limit)").query("skip", "0")
    }
}

/// One product: `GET /products/<id>`.
struct GetProduct: RequestType {
    typealias ResponseType = Product
    let id: Int
    var data: RequestData { .get("/products/\(id)") }
}

/// Creates a product: `POST /products/add`.
struct AddProduct: RequestType {
    typealias ResponseType = Product
    let draft: ProductDraft
    var data: RequestData { .post("/products/add").body(.json(draft)) }
}

/// Changes the fields of a product that `draft` gives: `PUT /products/<id>`.
struct UpdateProduct: RequestType {
    typealias ResponseType = Product
    let id: Int
    let draft: ProductDraft
    var data: RequestData { .put("/products/\(id)").body(.json(draft)) }
}

/// Deletes a product: `DELETE /products/<id>`.
struct DeleteProduct: RequestType {
    typealias ResponseType = Product
    let id: Int
    var data: RequestData { .delete("/products/\(id)") }
}
