import FTWBus
import FTWSessionInterface
import Foundation

/// A JSON document read strictly (a number is never a bool, a string never a number), so a model can pick the few
/// fields it uses and say which one was wrong, without trapping on anything the box sends.
enum JSONValue: Sendable, Hashable, Decodable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([JSONValue])
    case object([String: JSONValue])

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

    /// The body of a 2xx answer, read as JSON.
    ///
    /// - Throws: ``SiteError`` with `.unexpectedStatus` for another status, `.undecodable` when the body is not JSON.
    static func document(of response: APIResponse, path: String) throws(SiteError) -> JSONValue {
        guard (200..<300).contains(response.status) else {
            throw SiteError(.unexpectedStatus, "\(path) answered HTTP \(response.status)")
        }
        do {
            return try JSONDecoder().decode(JSONValue.self, from: Data(response.body))
        } catch {
            throw SiteError(.undecodable, "\(path) is not JSON", cause: error)
        }
    }

    /// The body of a 2xx answer, read as a JSON object.
    ///
    /// - Throws: ``SiteError`` as ``document(of:path:)``, or `.undecodable` when the body is no JSON object.
    static func object(of response: APIResponse, path: String) throws(SiteError) -> [String: JSONValue] {
        guard case .object(let object) = try document(of: response, path: path) else {
            throw SiteError(.undecodable, "\(path) is not a JSON object")
        }
        return object
    }

    /// The value as text, if it is a string.
    var string: String? { if case .string(let value) = self { value } else { nil } }
    /// The value as a number, if it is one.
    var number: Double? { if case .number(let value) = self { value } else { nil } }
    /// The value as a bool, if it is one.
    var bool: Bool? { if case .bool(let value) = self { value } else { nil } }
}

extension [String: JSONValue] {
    /// The first of `keys` present as a string.
    ///
    /// - Throws: ``SiteError`` `.undecodable` when the first present key holds something else than a string or null.
    func text(_ keys: String..., in path: String) throws(SiteError) -> String? {
        try first(keys, in: path, as: "a string", \.string)
    }

    /// The first of `keys` present as a number.
    ///
    /// - Throws: ``SiteError`` `.undecodable` when the first present key holds something else than a number or null.
    func number(_ keys: String..., in path: String) throws(SiteError) -> Double? {
        try first(keys, in: path, as: "a number", \.number)
    }

    /// The first of `keys` present as a bool.
    ///
    /// - Throws: ``SiteError`` `.undecodable` when the first present key holds something else than a bool or null.
    func flag(_ keys: String..., in path: String) throws(SiteError) -> Bool? {
        try first(keys, in: path, as: "a bool", \.bool)
    }

    private func first<T>(
        _ keys: [String],
        in path: String,
        as kind: String,
        _ read: (JSONValue) -> T?
    ) throws(SiteError) -> T? {
        guard let key = keys.first(where: { self[$0] != nil && self[$0] != .null }), let value = self[key] else {
            return nil
        }
        guard let typed = read(value) else { throw SiteError(.undecodable, "\(path).\(key) is not \(kind)") }
        return typed
    }
}
