import Errand
import Foundation

/// A product in the shop's catalog.
struct Product: Codable, Hashable, Sendable {
    let id: Int
    let name: String
    let price: Decimal
    let tags: [String]
}

/// What the app sends to create a product.
struct NewProduct: Codable, Sendable {
    let name: String
    let price: Decimal
    let tags: [String]
}

/// The catalog's endpoints, Conn style: one struct per request.
enum CatalogAPI {
    struct ListProducts: RequestType {
        typealias ResponseType = [Product]
        var tag: String?
        var data: RequestData {
            var request = RequestData.get("/anything/products")
            if let tag { request = request.query("tag", tag) }
            return request
        }
    }

    struct GetProduct: RequestType {
        typealias ResponseType = Product
        let id: Int
        var data: RequestData { .get("/anything/products/\(id)") }
    }

    struct CreateProduct: RequestType {
        typealias ResponseType = Product
        let product: NewProduct
        var data: RequestData { .post("/anything/products").body(.json(product)) }
    }
}

/// What httpbin's `/anything` says it received, for the live run.
struct Echo: Decodable, Sendable {
    let method: String
    let url: String
    let args: [String: String]
    let json: NewProduct?
}
