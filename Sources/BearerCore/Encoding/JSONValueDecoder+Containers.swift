extension JSONValueDecoder {
    /// The members of an object, by name.
    struct KeyedContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
        let members: [String: JSONValue]
        let path: CodingPath?

        var codingPath: [any CodingKey] { path?.keys ?? [] }

        var allKeys: [Key] { members.keys.compactMap { Key(stringValue: $0) } }

        func contains(_ key: Key) -> Bool { members[key.stringValue] != nil }

        private func decoder(for key: Key) throws -> JSONValueDecoder {
            guard let member = members[key.stringValue] else {
                throw DecodingError.keyNotFound(
                    key, .init(codingPath: codingPath, debugDescription: "No member \(key.stringValue)."))
            }
            return JSONValueDecoder(member, parentPath: path, key: key)
        }

        /// The member's decoder, or `nil` when the member is missing or `null`: one lookup.
        private func decoderIfPresent(for key: Key) -> JSONValueDecoder? {
            guard let member = members[key.stringValue] else { return nil }
            if case .null = member { return nil }
            return JSONValueDecoder(member, parentPath: path, key: key)
        }

        func decodeIfPresent(_ type: String.Type, forKey key: Key) throws -> String? {
            try decoderIfPresent(for: key)?.decode(type)
        }

        func decodeIfPresent(_ type: Double.Type, forKey key: Key) throws -> Double? {
            try decoderIfPresent(for: key)?.decode(type)
        }

        func decodeIfPresent(_ type: Int.Type, forKey key: Key) throws -> Int? {
            try decoderIfPresent(for: key)?.decode(type)
        }

        func decodeIfPresent(_ type: Bool.Type, forKey key: Key) throws -> Bool? {
            try decoderIfPresent(for: key)?.decode(type)
        }

        func decodeIfPresent<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T? {
            try decoderIfPresent(for: key)?.decodeValue(type)
        }

        func decodeNil(forKey key: Key) throws -> Bool { try decoder(for: key).decodeNil() }
        func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool { try decoder(for: key).decode(type) }
        func decode(_ type: String.Type, forKey key: Key) throws -> String { try decoder(for: key).decode(type) }
        func decode(_ type: Double.Type, forKey key: Key) throws -> Double { try decoder(for: key).decode(type) }
        func decode(_ type: Float.Type, forKey key: Key) throws -> Float { try decoder(for: key).decode(type) }
        func decode(_ type: Int.Type, forKey key: Key) throws -> Int { try decoder(for: key).decode(type) }
        func decode(_ type: Int8.Type, forKey key: Key) throws -> Int8 { try decoder(for: key).decode(type) }
        func decode(_ type: Int16.Type, forKey key: Key) throws -> Int16 { try decoder(for: key).decode(type) }
        func decode(_ type: Int32.Type, forKey key: Key) throws -> Int32 { try decoder(for: key).decode(type) }
        func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 { try decoder(for: key).decode(type) }
        func decode(_ type: UInt.Type, forKey key: Key) throws -> UInt { try decoder(for: key).decode(type) }
        func decode(_ type: UInt8.Type, forKey key: Key) throws -> UInt8 { try decoder(for: key).decode(type) }
        func decode(_ type: UInt16.Type, forKey key: Key) throws -> UInt16 { try decoder(for: key).decode(type) }
        func decode(_ type: UInt32.Type, forKey key: Key) throws -> UInt32 { try decoder(for: key).decode(type) }
        func decode(_ type: UInt64.Type, forKey key: Key) throws -> UInt64 { try decoder(for: key).decode(type) }

        func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
            try decoder(for: key).decodeValue(type)
        }

        func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) throws
            -> KeyedDecodingContainer<NestedKey>
        {
            try decoder(for: key).container(keyedBy: type)
        }

        func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
            try decoder(for: key).unkeyedContainer()
        }

        func superDecoder() throws -> any Decoder {
            JSONValueDecoder(.object(members), parentPath: path, key: nil)
        }

        func superDecoder(forKey key: Key) throws -> any Decoder { try decoder(for: key) }
    }

    /// The elements of an array, in order.
    struct UnkeyedContainer: UnkeyedDecodingContainer {
        let elements: [JSONValue]
        let path: CodingPath?
        private(set) var currentIndex = 0

        init(elements: [JSONValue], path: CodingPath?) {
            self.elements = elements
            self.path = path
        }

        var codingPath: [any CodingKey] { path?.keys ?? [] }

        var count: Int? { elements.count }
        var isAtEnd: Bool { currentIndex >= elements.count }

        private struct IndexKey: CodingKey {
            let intValue: Int?
            var stringValue: String { "\(intValue ?? 0)" }
            init(intValue: Int) { self.intValue = intValue }
            init?(stringValue: String) { nil }
        }

        private mutating func next() throws -> JSONValueDecoder {
            guard !isAtEnd else {
                throw DecodingError.valueNotFound(
                    JSONValue.self, .init(codingPath: codingPath, debugDescription: "The array has no more elements."))
            }
            defer { currentIndex += 1 }
            return JSONValueDecoder(
                elements[currentIndex], parentPath: path, key: IndexKey(intValue: currentIndex))
        }

        mutating func decodeNil() throws -> Bool {
            guard !isAtEnd, elements[currentIndex] == .null else { return false }
            currentIndex += 1
            return true
        }

        mutating func decode(_ type: Bool.Type) throws -> Bool { try next().decode(type) }
        mutating func decode(_ type: String.Type) throws -> String { try next().decode(type) }
        mutating func decode(_ type: Double.Type) throws -> Double { try next().decode(type) }
        mutating func decode(_ type: Float.Type) throws -> Float { try next().decode(type) }
        mutating func decode(_ type: Int.Type) throws -> Int { try next().decode(type) }
        mutating func decode(_ type: Int8.Type) throws -> Int8 { try next().decode(type) }
        mutating func decode(_ type: Int16.Type) throws -> Int16 { try next().decode(type) }
        mutating func decode(_ type: Int32.Type) throws -> Int32 { try next().decode(type) }
        mutating func decode(_ type: Int64.Type) throws -> Int64 { try next().decode(type) }
        mutating func decode(_ type: UInt.Type) throws -> UInt { try next().decode(type) }
        mutating func decode(_ type: UInt8.Type) throws -> UInt8 { try next().decode(type) }
        mutating func decode(_ type: UInt16.Type) throws -> UInt16 { try next().decode(type) }
        mutating func decode(_ type: UInt32.Type) throws -> UInt32 { try next().decode(type) }
        mutating func decode(_ type: UInt64.Type) throws -> UInt64 { try next().decode(type) }
        mutating func decode<T: Decodable>(_ type: T.Type) throws -> T { try next().decodeValue(type) }

        mutating func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type) throws
            -> KeyedDecodingContainer<NestedKey>
        {
            try next().container(keyedBy: type)
        }

        mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
            try next().unkeyedContainer()
        }

        mutating func superDecoder() throws -> any Decoder { try next() }
    }
}
