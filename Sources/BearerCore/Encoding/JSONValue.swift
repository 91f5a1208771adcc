/// A JSON value, as a server sent it: an ID token's claims and a token answer's fields that Bearer
/// does not interpret (RFC 6749 §5.1 allows extensions).
///
/// ```swift
/// let locale = session.state.idToken?.claims["locale"]?.stringValue
/// let serverCode = session.state.additionalParameters["server_code"]?.stringValue
/// ```
public enum JSONValue: Sendable, Hashable, Codable {
    /// `null`.
    case null
    /// `true` or `false`.
    case bool(Bool)
    /// A number.
    case number(Double)
    /// A string.
    case string(String)
    /// An array.
    indirect case array([JSONValue])
    /// An object.
    indirect case object([String: JSONValue])

    /// Decodes any JSON value; a number that cannot be read as a `Double` becomes infinity.
    public init(from decoder: any Decoder) throws {
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
        } else if let value = try? container.decode([String: JSONValue].self) {
            self = .object(value)
        } else {
            // What is left is a number Foundation cannot read: too large for a Double (`1e400`) or
            // malformed (`1.`, which its scanner lets through). It is kept as infinity, which every
            // reader treats as out of range and which no saved session holds, so one field cannot
            // make a whole answer unreadable.
            self = .number(.infinity)
        }
    }

    /// Encodes the value as it was.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .null: try container.encodeNil()
        case .bool(let value): try container.encode(value)
        case .number(let value): try container.encode(value)
        case .string(let value): try container.encode(value)
        case .array(let value): try container.encode(value)
        case .object(let value): try container.encode(value)
        }
    }

    /// The string, if this is a string.
    public var stringValue: String? {
        if case .string(let value) = self { return value }
        return nil
    }

    /// The number, if this is a number or a string holding a number (servers differ).
    public var numberValue: Double? {
        switch self {
        case .number(let value): return value
        case .string(let value): return Double(value.trimmingWhitespace())
        default: return nil
        }
    }

    /// The boolean, if this is a boolean or the string `"true"` / `"false"`.
    public var boolValue: Bool? {
        switch self {
        case .bool(let value): return value
        case .string(let value) where value.lowercased() == "true": return true
        case .string(let value) where value.lowercased() == "false": return false
        default: return nil
        }
    }
}

extension String {
    func trimmingWhitespace() -> Substring {
        let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" }
        guard let first = firstIndex(where: { !isSpace($0) }), let last = lastIndex(where: { !isSpace($0) }) else {
            return ""
        }
        return self[first...last]
    }
}

extension JSONValue: ExpressibleByStringLiteral, ExpressibleByBooleanLiteral, ExpressibleByIntegerLiteral,
    ExpressibleByFloatLiteral, ExpressibleByNilLiteral, ExpressibleByArrayLiteral, ExpressibleByDictionaryLiteral
{
    /// A string.
    public init(stringLiteral value: String) { self = .string(value) }
    /// A boolean.
    public init(booleanLiteral value: Bool) { self = .bool(value) }
    /// A number.
    public init(integerLiteral value: Int) { self = .number(Double(value)) }
    /// A number.
    public init(floatLiteral value: Double) { self = .number(value) }
    /// `null`.
    public init(nilLiteral: ()) { self = .null }
    /// An array.
    public init(arrayLiteral elements: JSONValue...) { self = .array(elements) }
    /// An object.
    public init(dictionaryLiteral elements: (String, JSONValue)...) {
        self = .object(Dictionary(elements) { _, last in last })
    }
}
