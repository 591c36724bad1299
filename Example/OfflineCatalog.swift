import Errand
import Foundation

/// An in-memory backend seeded with a small catalog, so the example runs with no network.
enum OfflineCatalog {
    static let products = [
        Product(id: 1, name: "Espresso cup", price: 9.5, tags: ["kitchen"]),
        Product(id: 2, name: "Pour-over kettle", price: 39, tags: ["kitchen", "coffee"]),
        Product(id: 3, name: "Hand grinder", price: 74.9, tags: ["coffee"]),
        Product(id: 4, name: "Linen apron", price: 24, tags: ["kitchen", "textile"]),
    ]

    static func dispatcher() -> InMemoryDispatcher {
        let dispatcher = InMemoryDispatcher(latency: .milliseconds(20))
        // Stubs added later win, so the catch-all goes first.
        dispatcher.stub(
            .get, "/anything/products/*", response: .json(["error": "no such product"], status: 404))
        dispatcher.stub(.get, "/anything/products", response: .json(products))
        dispatcher.stub(
            .get, "/anything/products?tag=coffee",
            response: .json(products.filter { $0.tags.contains("coffee") }))
        for product in products {
            dispatcher.stub(.get, "/anything/products/\(product.id)", response: .json(product))
        }
        dispatcher.stub(
            .post, "/anything/products",
            response: .json(Product(id: 5, name: "Milk jug", price: 18, tags: ["coffee"]), status: 201))
        return dispatcher
    }
}
