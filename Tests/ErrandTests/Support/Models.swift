import Errand
import Foundation

struct User: Codable, Hashable, Sendable {
    let id: Int
    let name: String
}

struct GetAllUsers: RequestType {
    typealias ResponseType = [User]
    var data: RequestData { RequestData(path: "/users") }
}

struct GetUser: RequestType {
    typealias ResponseType = User
    let id: Int
    var data: RequestData { .get("/users/\(id)") }
}

/// The subset of httpbin's echo that the live tests read.
struct Echo: Decodable, Sendable {
    let args: [String: String]?
    let headers: [String: String]?
    let data: String?
    let form: [String: String]?
    let files: [String: String]?
    let json: JSONValue?
    let url: String?
}

/// Any JSON value, for comparing echoed bodies.
enum JSONValue: Decodable, Hashable, Sendable {
    case string(String)
    case number(Double)
    case bool(Bool)
    case object([String: JSONValue])
    case array([JSONValue])
    case null

    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let value = try? container.decode(Bool.self) {
            self = .bool(value)
        } else if let value = try? container.decode(Double.self) {
            self = .number(value)
        } else if let value = try? container.decode(String.self) {
            self = .string(value)
        } else if let value = try? container.decode([JSONValue].self) {
            self = .array(value)
        } else {
            self = .object(try container.decode([String: JSONValue].self))
        }
    }
}

enum Fixtures {
    static func url(_ name: String) throws -> URL {
        guard let url = Bundle.module.url(forResource: name, withExtension: nil, subdirectory: "Fixtures")
        else {
            throw CocoaError(.fileNoSuchFile)
        }
        return url
    }
}
