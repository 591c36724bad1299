import Errand
import Foundation

// `swift run Example` runs offline against an in-memory catalog.
// `swift run Example --live <base-url>` sends the same requests to a real server; httpbin's
// `/anything` echo endpoint (as started by `scripts/test --servers-only`) shows what it received.

let arguments = CommandLine.arguments.dropFirst()
let liveURL: URL? = arguments.first == "--live" ? arguments.dropFirst().first.flatMap(URL.init(string:)) : nil
if arguments.first == "--live", liveURL == nil {
    FileHandle.standardError.write(Data("usage: swift run Example [--live <base-url>]\n".utf8))
    exit(2)
}

let newProduct = NewProduct(name: "Milk jug", price: 18, tags: ["coffee"])

if let liveURL {
    let dispatcher = URLSessionDispatcher(baseURL: liveURL, timeout: 10)
    print("Sending the catalog requests to \(liveURL.absoluteString)\n")
    let requests = [
        CatalogAPI.ListProducts(tag: "coffee").data, CatalogAPI.GetProduct(id: 2).data,
        CatalogAPI.CreateProduct(product: newProduct).data,
    ]
    for request in requests {
        do {
            let echo = try await Request<Echo>(request).execute(dispatcher: dispatcher)
            var line = "\(echo.method) \(echo.url)"
            if !echo.args.isEmpty {
                line +=
                    "  query: " + echo.args.map { "\($0.key)=\($0.value)" }.sorted().joined(separator: "&")
            }
            if let json = echo.json { line += "  body: \(json.name) at \(json.price)" }
            print("✓ server received " + line)
        } catch {
            print("✗ \(request): \(error)")
            exit(1)
        }
    }
} else {
    let dispatcher = OfflineCatalog.dispatcher()
    print("Catalog (offline, from an in-memory dispatcher)\n")
    do {
        let products = try await CatalogAPI.ListProducts().execute(dispatcher: dispatcher)
        for product in products {
            print(
                "  #\(product.id)  \(product.name.padding(toLength: 18, withPad: " ", startingAt: 0))  \(product.price) €"
            )
        }
        let coffee = try await CatalogAPI.ListProducts(tag: "coffee").execute(dispatcher: dispatcher)
        print("\nTagged coffee: " + coffee.map(\.name).joined(separator: ", "))
        let (detail, response) = try await CatalogAPI.GetProduct(id: 3).executeWithResponse(
            dispatcher: dispatcher)
        print("\nDetail (\(response.statusCode)): \(detail.name), \(detail.price) €, tags \(detail.tags)")
        let created = try await CatalogAPI.CreateProduct(product: newProduct).execute(dispatcher: dispatcher)
        print("Created #\(created.id): \(created.name)")
        do {
            _ = try await CatalogAPI.GetProduct(id: 99).execute(dispatcher: dispatcher)
        } catch let error as NetworkError {
            print("\nProduct #99: \(error.userMessage) (\(error.code), status \(error.statusCode ?? 0))")
        }
        print("\n\(dispatcher.receivedRequests.count) requests sent:")
        for request in dispatcher.receivedRequests { print("  \(request)") }
    } catch {
        print("✗ \(error)")
        exit(1)
    }
}
