import Foundation

/// What the person asked for on the command line.
enum Command: Equatable {
    case tour
    case products(search: String?, page: Int)
    case product(id: Int)
    case add(ProductDraft)
    case update(id: Int, ProductDraft)
    case delete(id: Int)
    case login(user: String, password: String)
    case me
    case logout
    case help
}

/// The parsed command line: the command, and where and how to run it.
struct Invocation {
    var command = Command.tour
    var liveURL: URL?
    var staging = false
    var record = false
    var recordings: URL?
    var verbose = false
}
