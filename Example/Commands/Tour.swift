import Errand
import Foundation

/// The tour that `swift run Example` plays: each step a screen of the app, printed.
///
/// The access token "expires" by moving the app's clock past its lifetime, not by waiting, so
/// the tour takes the same path every run: offline, live, and while recording.
@MainActor
struct Tour {
    let app: App

    func run() async throws {
        let catalog = CatalogScreen(dispatcher: app.dispatcher)
        let first = try await app.reporting { try await catalog.load() }
        section("products", Self.pageTitle(1, total: catalog.total))
        Console.out(lines: ProductTable.render(first))

        let found = try await app.reporting {
            try await SearchScreen(dispatcher: app.dispatcher).search("phone")
        }
        section("products --search phone", "Search \"phone\": \(found.total) found")
        Console.out(lines: ProductTable.render(found.products))

        let second = try await app.reporting { try await catalog.loadNextPage() }
        section("products --page 2", Self.pageTitle(2, total: catalog.total))
        Console.out(lines: ProductTable.render(second))

        let product = try await app.reporting {
            try await ProductScreen(id: 1, dispatcher: app.dispatcher).load()
        }
        section("product 1", nil)
        Console.out(lines: ProductTable.card(product))

        // The tour's session lives in memory (see `App`), so it leaves a stored login alone.
        let session = app.sessionScreen()
        let name = try await CommandRunner(app: app).logIn(
            DemoAccount.user, DemoAccount.password, on: session)
        section("login emilys ••••••••", "Logged in as \(name).")
        let tokens = try await session.auth.storage.read()
        let me = try await app.reporting { try await session.me() }
        section("me", Self.describe(me))

        let lifetime = tokens?.expiresAt.map { $0.timeIntervalSince(app.clock.now) } ?? 60
        app.clock.advance(by: lifetime.rounded(.up) + 60)
        Console.out()
        Console.out("(two minutes pass: the access token expires)")
        section("me", "The access token has expired: it is refreshed first.")
        let again = try await app.reporting { try await session.me() }
        let renewed = try await session.auth.storage.read()
        Console.out(Self.describe(again))
        Console.out(
            "  access token renewed: \(renewed?.accessToken != tokens?.accessToken || renewed?.expiresAt != tokens?.expiresAt ? "yes" : "no")"
        )

        try await app.reporting { try await session.logOut() }
        section("logout", "Logged out.")
        do {
            _ = try await session.me()
            Console.out("me still answers: unexpected")
        } catch let error as NetworkError where error.code == .sessionExpired {
            Console.out("me now says: not logged in (no request sent).")
        }
    }

    private func section(_ command: String, _ headline: String?) {
        Console.out()
        Console.out("$ Example \(command)")
        if let headline { Console.out(headline) }
    }

    /// "Page 2 of 2 (20 products)".
    static func pageTitle(_ page: Int, total: Int) -> String {
        let pages = max(1, (total + CatalogScreen.pageSize - 1) / CatalogScreen.pageSize)
        return "Page \(page) of \(pages) (\(total) products)"
    }

    /// "Emily Johnson (@emilys, emily.johnson@x.dummyjson.com)".
    static func describe(_ user: User) -> String {
        "\(user.firstName) \(user.lastName) (@\(user.username), \(user.email))"
    }
}
