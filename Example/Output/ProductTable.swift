import Foundation

/// Renders products as a table with aligned columns, and one product as a card.
enum ProductTable {
    /// The table: id, title, category, price, rating, stock.
    static func render(_ products: [Product]) -> [String] {
        let header = ["ID", "TITLE", "CATEGORY", "PRICE", "RATING", "STOCK"]
        let rows = products.map { product in
            [
                "\(product.id)", product.title, product.category ?? "-", price(product.price),
                product.rating.map { String(format: "%.2f", $0) } ?? "-",
                product.stock.map { "\($0)" } ?? "-",
            ]
        }
        let all = [header] + rows
        let widths = header.indices.map { column in all.map { $0[column].count }.max() ?? 0 }
        let rightAligned: Set<Int> = [0, 3, 4, 5]
        func line(_ cells: [String]) -> String {
            let padded = cells.enumerated().map { column, cell in
                let padding = String(repeating: " ", count: widths[column] - cell.count)
                return rightAligned.contains(column) ? padding + cell : cell + padding
            }
            return "  " + padded.joined(separator: "  ").trimmingTrailingSpaces
        }
        let rule = "  " + widths.map { String(repeating: "-", count: $0) }.joined(separator: "  ")
        return [line(header), rule] + rows.map(line)
    }

    /// One product, field by field.
    static func card(_ product: Product) -> [String] {
        var lines = ["  #\(product.id) \(product.title)"]
        if let brand = product.brand { lines.append("  brand     \(brand)") }
        if let category = product.category { lines.append("  category  \(category)") }
        lines.append("  price     \(price(product.price))")
        if let rating = product.rating { lines.append("  rating    \(String(format: "%.2f", rating))") }
        if let stock = product.stock { lines.append("  stock     \(stock)") }
        if let description = product.description { lines.append("  about     \(description)") }
        return lines
    }

    /// A price with two decimals and a dollar sign, as the API's prices are in dollars.
    static func price(_ value: Decimal) -> String {
        "$" + String(format: "%.2f", NSDecimalNumber(decimal: value).doubleValue)
    }
}

extension String {
    /// The text without trailing spaces.
    fileprivate var trimmingTrailingSpaces: String {
        var text = self
        while text.hasSuffix(" ") { text.removeLast() }
        return text
    }
}
