#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Decodes `Decodable` types from a ``JSONValue`` read by ``JSONParser``, with the conventions
/// `AuthState.encoded()` writes with: dates as seconds since 1970, URLs as strings, data as
/// base64. Errors are `DecodingError`s with the coding path, as Foundation's decoder throws.
struct JSONValueDecoder: Decoder {
    /// The value being decoded.
    let value: JSONValue
    /// The path of the container holding the value.
    private let parentPath: CodingPath?
    /// The value's key in that container, if it has one.
    private let key: (any CodingKey)?

    /// The keys that led to the value; made only when asked (for an error).
    var codingPath: [any CodingKey] { path?.keys ?? [] }
    /// Nothing: Bearer's types take no options.
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    init(_ value: JSONValue, parentPath: CodingPath?, key: (any CodingKey)?) {
        self.value = value
        self.parentPath = parentPath
        self.key = key
    }

    /// The path of this value, as a container of it holds it.
    private var path: CodingPath? {
        key.map { CodingPath(key: $0, parent: parentPath) } ?? parentPath
    }

    /// The keys that led to a container, from the container back to the top: each nested
    /// container adds one link, and the array a `codingPath` is made of only when asked for.
    final class CodingPath: Sendable {
        let key: any CodingKey
        let parent: CodingPath?

        init(key: any CodingKey, parent: CodingPath?) {
            self.key = key
            self.parent = parent
        }

        /// The keys from the top down.
        var keys: [any CodingKey] {
            var keys: [any CodingKey] = []
            var link: CodingPath? = self
            while let current = link {
                keys.append(current.key)
                link = current.parent
            }
            return keys.reversed()
        }
    }

    /// Parses `data` with ``JSONParser`` and decodes a `type` from it.
    ///
    /// - Parameters:
    ///   - type: The type to decode.
    ///   - data: The JSON text.
    /// - Returns: The value.
    /// - Throws: ``JSONParser/Failure`` when the text is not JSON Bearer reads; `DecodingError`
    ///   when it does not hold a `type`.
    static func decode<T: Decodable>(_ type: T.Type, from data: Data) throws -> T {
        try JSONValueDecoder(try JSONParser.parse(data), parentPath: nil, key: nil).decodeValue(type)
    }

    /// Decodes a `type` from this value, reading the types Foundation's decoder treats specially
    /// (`Date`, `URL`, `Data`) as it does with the strategies Bearer uses.
    ///
    /// The types every saved session holds (its tokens, scopes and string maps) are read straight
    /// from the value when it has the expected shape; any other shape goes through their own
    /// `init(from:)`, so errors and their coding paths stay the same either way.
    func decodeValue<T: Decodable>(_ type: T.Type) throws -> T {
        // Each direct read casts into `T` where it is made: a helper returning `T?` would look up
        // the metadata of `Optional<T>` on every call.
        switch value {
        case .string(let string):
            if type == AccessToken.self, let token = AccessToken(string) as? T { return token }
            if type == RefreshToken.self, let token = RefreshToken(string) as? T { return token }
            if type == ClientSecret.self, let secret = ClientSecret(string) as? T { return secret }
        case .array(let elements) where ObjectIdentifier(type) == GenericType.strings:
            if let strings = Self.strings(elements), let strings = strings as? T { return strings }
        case .object(let members):
            if ObjectIdentifier(type) == GenericType.members, let members = members as? T { return members }
            if ObjectIdentifier(type) == GenericType.stringMembers, let strings = Self.strings(members),
                let strings = strings as? T
            {
                return strings
            }
        default:
            break
        }
        if type == JSONValue.self, let value = value as? T { return value }
        if type == Date.self, let date = Date(timeIntervalSince1970: try decodeNumber(Double.self)) as? T {
            return date
        }
        if type == URL.self {
            guard let url = URL(string: try decode(String.self)), let url = url as? T else {
                throw DecodingError.dataCorrupted(.init(codingPath: codingPath, debugDescription: "Not a valid URL."))
            }
            return url
        }
        if type == Data.self {
            guard let data = Data(base64Encoded: try decode(String.self)), let data = data as? T else {
                throw DecodingError.dataCorrupted(.init(codingPath: codingPath, debugDescription: "Not base64."))
            }
            return data
        }
        return try T(from: self)
    }

    /// The generic types read directly. A generic type's metadata is looked up anew wherever it is
    /// named, so each is looked up once.
    private enum GenericType {
        static let strings = ObjectIdentifier([String].self)
        static let members = ObjectIdentifier([String: JSONValue].self)
        static let stringMembers = ObjectIdentifier([String: String].self)
    }

    /// The elements as strings, or `nil` when one is not a string (its own error is then thrown
    /// by the general path).
    private static func strings(_ elements: [JSONValue]) -> [String]? {
        var strings: [String] = []
        strings.reserveCapacity(elements.count)
        for element in elements {
            guard case .string(let string) = element else { return nil }
            strings.append(string)
        }
        return strings
    }

    /// The members as strings, or `nil` when one is not a string.
    private static func strings(_ members: [String: JSONValue]) -> [String: String]? {
        var strings: [String: String] = [:]
        strings.reserveCapacity(members.count)
        for (name, member) in members {
            guard case .string(let string) = member else { return nil }
            strings[name] = string
        }
        return strings
    }

    func mismatch(_ type: Any.Type, _ expected: String) -> DecodingError {
        DecodingError.typeMismatch(
            type, .init(codingPath: codingPath, debugDescription: "Expected \(expected), found \(value.kindName)."))
    }

    func decodeNumber<T: BinaryFloatingPoint>(_ type: T.Type) throws -> T {
        guard case .number(let number) = value else { throw mismatch(type, "a number") }
        return T(number)
    }

    func decodeInteger<T: FixedWidthInteger>(_ type: T.Type) throws -> T {
        guard case .number(let number) = value else { throw mismatch(type, "a number") }
        guard let integer = T(exactly: number) else {
            throw DecodingError.dataCorrupted(
                .init(codingPath: codingPath, debugDescription: "The number does not fit \(type)."))
        }
        return integer
    }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        guard case .object(let members) = value else { throw mismatch([String: Any].self, "an object") }
        return KeyedDecodingContainer(KeyedContainer<Key>(members: members, path: path))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        guard case .array(let elements) = value else { throw mismatch([Any].self, "an array") }
        return UnkeyedContainer(elements: elements, path: path)
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer {
        self
    }
}

extension JSONValueDecoder: SingleValueDecodingContainer {
    func decodeNil() -> Bool { value == .null }

    func decode(_ type: Bool.Type) throws -> Bool {
        guard case .bool(let bool) = value else { throw mismatch(type, "true or false") }
        return bool
    }

    func decode(_ type: String.Type) throws -> String {
        guard case .string(let string) = value else { throw mismatch(type, "a string") }
        return string
    }

    func decode(_ type: Double.Type) throws -> Double { try decodeNumber(type) }
    func decode(_ type: Float.Type) throws -> Float { try decodeNumber(type) }
    func decode(_ type: Int.Type) throws -> Int { try decodeInteger(type) }
    func decode(_ type: Int8.Type) throws -> Int8 { try decodeInteger(type) }
    func decode(_ type: Int16.Type) throws -> Int16 { try decodeInteger(type) }
    func decode(_ type: Int32.Type) throws -> Int32 { try decodeInteger(type) }
    func decode(_ type: Int64.Type) throws -> Int64 { try decodeInteger(type) }
    func decode(_ type: UInt.Type) throws -> UInt { try decodeInteger(type) }
    func decode(_ type: UInt8.Type) throws -> UInt8 { try decodeInteger(type) }
    func decode(_ type: UInt16.Type) throws -> UInt16 { try decodeInteger(type) }
    func decode(_ type: UInt32.Type) throws -> UInt32 { try decodeInteger(type) }
    func decode(_ type: UInt64.Type) throws -> UInt64 { try decodeInteger(type) }
    func decode<T: Decodable>(_ type: T.Type) throws -> T { try decodeValue(type) }
}

extension JSONValue {
    /// The kind of value, for decoding errors: never the value itself.
    var kindName: String {
        switch self {
        case .null: "null"
        case .bool: "a boolean"
        case .number: "a number"
        case .string: "a string"
        case .array: "an array"
        case .object: "an object"
        }
    }
}
