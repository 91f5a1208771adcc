/// The header fields of a ``TransportRequest`` or ``TransportResponse``: names compared without
/// regard to case (RFC 9110 §5.1), in the order they were set.
public struct HTTPHeaderFields: Sendable, Hashable, ExpressibleByDictionaryLiteral, Sequence {
    private var fields: [(name: String, value: String)] = []

    /// Creates empty header fields.
    public init() {}

    /// Creates header fields from name and value pairs; a later duplicate name replaces an earlier one.
    ///
    /// - Parameter elements: The names and values.
    public init(dictionaryLiteral elements: (String, String)...) {
        for (name, value) in elements { self[name] = value }
    }

    /// Creates header fields from a dictionary, such as `HTTPURLResponse.allHeaderFields`.
    ///
    /// - Parameter dictionary: The names and values.
    public init(_ dictionary: [String: String]) {
        for (name, value) in dictionary.sorted(by: { $0.key < $1.key }) { self[name] = value }
    }

    /// The value of the field named `name`, whatever its case; setting `nil` removes it.
    public subscript(name: String) -> String? {
        get { fields.first { $0.name.lowercased() == name.lowercased() }?.value }
        set {
            let index = fields.firstIndex { $0.name.lowercased() == name.lowercased() }
            switch (index, newValue) {
            case (let index?, let value?): fields[index] = (name, value)
            case (let index?, nil): fields.remove(at: index)
            case (nil, let value?): fields.append((name, value))
            case (nil, nil): break
            }
        }
    }

    /// The fields, in order, as name and value pairs.
    public func makeIterator() -> some IteratorProtocol<(name: String, value: String)> {
        fields.makeIterator()
    }

    /// Whether both hold the same fields, names compared without regard to case.
    public static func == (lhs: HTTPHeaderFields, rhs: HTTPHeaderFields) -> Bool {
        lhs.normalized == rhs.normalized
    }

    /// Hashes the fields, names without regard to case.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(normalized)
    }

    private var normalized: [String: String] {
        Dictionary(fields.map { ($0.name.lowercased(), $0.value) }) { _, last in last }
    }
}
