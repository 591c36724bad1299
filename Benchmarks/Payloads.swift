import Foundation

/// A response body the benchmark serves and decodes, with a checksum that proves it was decoded.
protocol BenchmarkPayload: Codable, Sendable {
    /// The file name nginx serves it under.
    static var fileName: String { get }
    /// The request path: `/` and the file name.
    static var path: String { get }
    /// How the report names it, such as `small (411 B)`.
    static var label: String { get }
    /// A number computed from the decoded value, so the work cannot be optimised away.
    var checksum: Int { get }
}

/// The small payload: one user object, 411 bytes of JSON.
struct User: BenchmarkPayload {
    struct Address: Codable, Sendable {
        let street: String
        let suite: String
        let city: String
        let zipcode: String
        let geo: Geo
    }

    struct Geo: Codable, Sendable {
        let lat: String
        let lng: String
    }

    struct Company: Codable, Sendable {
        let name: String
        let catchPhrase: String
        let bs: String
    }

    static let fileName = "user.json"
    static let path = "/user.json"
    static let label = "small (411 B)"

    let id: Int
    let name: String
    let username: String
    let email: String
    let address: Address
    let phone: String
    let website: String
    let company: Company

    var checksum: Int { id + name.utf8.count }
}

/// The medium payload: a page of 100 products, 57,000 bytes of JSON.
struct ProductList: BenchmarkPayload {
    struct Product: Codable, Sendable {
        struct Dimensions: Codable, Sendable {
            let width: Double
            let height: Double
            let depth: Double
        }

        let id: Int
        let title: String
        let description: String
        let category: String
        let price: Double
        let discountPercentage: Double
        let rating: Double
        let stock: Int
        let tags: [String]
        let brand: String
        let sku: String
        let weight: Int
        let dimensions: Dimensions
        let warrantyInformation: String
        let shippingInformation: String
        let availabilityStatus: String
        let minimumOrderQuantity: Int
        let images: [String]
        let thumbnail: String
    }

    static let fileName = "products.json"
    static let path = "/products.json"
    static let label = "medium (57 KB)"

    let products: [Product]
    let total: Int
    let skip: Int
    let limit: Int

    var checksum: Int { products.reduce(0) { $0 + $1.id + $1.stock } }
}

/// The two payloads as bytes, generated deterministically so every run serves the same files.
struct Payloads: Sendable {
    static let smallSize = 411
    static let mediumSize = 57_000

    let small: Data
    let medium: Data

    static func make() throws -> Payloads {
        Payloads(
            small: try exactly(smallSize) { user(extra: $0) },
            medium: try exactly(mediumSize) { productList(extra: $0) })
    }

    /// The bytes for a payload type.
    func bytes<Payload: BenchmarkPayload>(for type: Payload.Type) -> Data {
        type == User.self ? small : medium
    }

    /// The checksum of the payload's own bytes, decoded once, to check every answer against.
    func checksum<Payload: BenchmarkPayload>(of type: Payload.Type) throws -> Int {
        try JSONDecoder().decode(Payload.self, from: bytes(for: type)).checksum
    }

    /// Writes `user.json` and `products.json` into `directory`, which must exist.
    func write(to directory: URL) throws {
        try small.write(to: directory.appending(path: User.fileName))
        try medium.write(to: directory.appending(path: ProductList.fileName))
    }

    private static let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }()

    /// Encodes `make(extra)` with `extra` filler bytes, chosen so the JSON is exactly `size` bytes.
    private static func exactly<Value: Encodable>(_ size: Int, _ make: (Int) -> Value) throws -> Data {
        let base = try encoder.encode(make(0)).count
        guard base <= size else {
            throw BenchmarkError("a generated payload is \(base) bytes, over \(size)")
        }
        let data = try encoder.encode(make(size - base))
        guard data.count == size else {
            throw BenchmarkError("a generated payload is \(data.count) bytes, not \(size)")
        }
        return data
    }

    /// `count` letters of filler text (plain ASCII, so one byte each in JSON).
    private static func filler(_ count: Int) -> String {
        let words = Array(" Sturdy, light and quietly well made".utf8)
        return String(decoding: (0..<count).map { words[$0 % words.count] }, as: UTF8.self)
    }

    private static func user(extra: Int) -> User {
        User(
            id: 7, name: "Leona Okonkwo", username: "leona.ok",
            email: "leona@example.org",
            address: User.Address(
                street: "Tanneurs 41", suite: "Apt. 12", city: "Gwenborough",
                zipcode: "92998-3874", geo: User.Geo(lat: "-37.3159", lng: "81.1496")),
            phone: "+1-770-736-8031 x56442", website: "leona.example.org",
            company: User.Company(
                name: "Okonkwo Maps", catchPhrase: "Multi-layered client-server maps",
                bs: "harness real-time e-markets" + filler(extra)))
    }

    private static func productList(extra: Int) -> ProductList {
        let categories = ["beauty", "fragrances", "furniture", "groceries", "kitchen", "laptops"]
        let brands = ["Essence", "Glamour Beauty", "Velvet Touch", "Chic Cosmetics", "Nail Couture"]
        var products: [ProductList.Product] = []
        for id in 1...100 {
            // Deterministic values that vary per product, as a real catalogue's do.
            let seed = (id * 7_919) % 1_000
            let category = categories[id % categories.count]
            products.append(
                ProductList.Product(
                    id: id, title: "Product \(id) \(category.capitalized) Edition",
                    description: "A dependable \(category) item."
                        + filler(extra / 100 + (id <= extra % 100 ? 1 : 0)),
                    category: category, price: Double(seed * 10 + 99) / 100,
                    discountPercentage: Double(seed % 200) / 10, rating: Double(250 + seed % 250) / 100,
                    stock: seed % 120, tags: [category, id.isMultiple(of: 2) ? "sale" : "new"],
                    brand: brands[id % brands.count], sku: "SKU-\(10_000 + seed)-\(id)", weight: 1 + seed % 9,
                    dimensions: ProductList.Product.Dimensions(
                        width: Double(40 + seed % 90) / 4, height: Double(20 + seed % 60) / 4,
                        depth: Double(12 + seed % 30) / 4),
                    warrantyInformation: "\(1 + id % 3) year warranty",
                    shippingInformation: "Ships in \(1 + id % 7) business days",
                    availabilityStatus: seed % 120 < 5 ? "Low Stock" : "In Stock",
                    minimumOrderQuantity: 1 + id % 10,
                    images: ["https://cdn.example.com/p/\(id)/1.png"],
                    thumbnail: "https://cdn.example.com/p/\(id)/thumb.png"))
        }
        return ProductList(products: products, total: 100, skip: 0, limit: 100)
    }
}

/// A failure of the benchmark itself: bad arguments, a wrong answer, a missing tool.
struct BenchmarkError: Error, CustomStringConvertible {
    let description: String

    init(_ description: String) {
        self.description = description
    }
}
