import Errand
import Foundation

/// Runs one command of the command line against the app's screens.
@MainActor
struct CommandRunner {
    let app: App

    func run(_ command: Command) async throws {
        switch command {
        case .help: Console.out(Usage.text)
        case .tour:
            try await Tour(app: app).run()
            if app.records { try await recordOtherCommands() }
        case .products(let search?, _):
            let page = try await app.reporting {
                try await SearchScreen(dispatcher: app.dispatcher).search(search)
            }
            Console.out("Search \"\(search)\": \(page.total) found")
            Console.out(lines: ProductTable.render(page.products))
        case .products(nil, let number):
            let screen = CatalogScreen(dispatcher: app.dispatcher, firstPage: number)
            let products = try await app.reporting { try await screen.load() }
            Console.out(Tour.pageTitle(number, total: screen.total))
            Console.out(lines: ProductTable.render(products))
        case .product(let id):
            let product = try await app.reporting(notFound: "there is no product \(id)") {
                try await ProductScreen(id: id, dispatcher: app.dispatcher).load()
            }
            Console.out(lines: ProductTable.card(product))
        case .add(let draft):
            let product = try await edit(.add(draft), notFound: nil)
            Console.out("Added #\(product.id) \(product.title) at \(ProductTable.price(product.price))")
        case .update(let id, let draft):
            let product = try await edit(.update(id: id, draft), notFound: "there is no product \(id)")
            Console.out("Updated #\(product.id): \(product.title) at \(ProductTable.price(product.price))")
        case .delete(let id):
            let product = try await edit(.delete(id: id), notFound: "there is no product \(id)")
            Console.out("Deleted #\(product.id) \(product.title)")
        case .login(let user, let password):
            let name = try await logIn(user, password)
            Console.out("Logged in as \(name).")
        case .me:
            let user = try await app.reporting { try await app.sessionScreen().me() }
            Console.out(Tour.describe(user))
        case .logout:
            try await app.reporting { try await app.sessionScreen().logOut() }
            Console.out("Logged out.")
        }
    }

    /// The commands the tour does not play, recorded so that they work offline too, with the
    /// failures a person meets most: a product that does not exist, a wrong password.
    private func recordOtherCommands() async throws {
        Console.out()
        Console.out("Recording the other commands:")
        let commands: [Command] = [
            .add(ProductDraft(title: "Errand mug", price: 12.5)),
            .update(id: 1, ProductDraft(title: "iPhone 9 (renewed)", price: 499)),
            .delete(id: 1), .product(id: 9999), .login(user: DemoAccount.user, password: "wrong"),
        ]
        for command in commands {
            do {
                try await run(command)
            } catch let failure as ExampleFailure {
                Console.out(failure.message)
            }
        }
    }

    private func edit(_ edit: EditorScreen.Edit, notFound: String?) async throws -> Product {
        try await app.reporting(notFound: notFound) {
            try await EditorScreen(dispatcher: app.dispatcher).submit(edit)
        }
    }

    /// Signs in; a refusal says the user or password is wrong, in those words.
    func logIn(_ user: String, _ password: String, on screen: SessionScreen? = nil) async throws -> String {
        do {
            return try await (screen ?? app.sessionScreen()).logIn(user, password)
        } catch let error as NetworkError
            where error.code == .unacceptableStatus
            && error.statusCode.map({ (400..<404).contains($0) }) == true
        {
            let said = FailureMessages.serverMessage(error).map { " (the server said: \($0))" } ?? ""
            throw ExampleFailure(
                message: "error: login refused: wrong user name or password\(said)", status: 1)
        } catch let error as NetworkError {
            throw FailureMessages.failure(error, environment: app.environment)
        }
    }
}
