import Bearer
import Foundation

/// An `NSKeyedArchiver` archive, read by walking its `$objects` / `$top` / `CF$UID` graph, without
/// the archived Objective-C classes (they do not exist on Linux, and Foundation's unarchiver traps
/// on data it does not expect).
struct KeyedArchive: Sendable {
    /// A value stored under a key of an archived object: inline, or a reference to another object.
    enum Value: Sendable, Equatable {
        case null
        case bool(Bool)
        case integer(Int64)
        case real(Double)
        case string(String)
        case data(Data)
        case object(Int)
    }

    /// Seconds between 1970-01-01 and 2001-01-01, NSDate's reference date.
    static let referenceDateOffset: TimeInterval = 978_307_200

    let plist: BinaryPropertyList
    /// The plist indices of the `$objects` entries; an archive UID indexes this array.
    let entries: [Int]
    /// The UID of the root object.
    let root: Int
    /// How many bytes one conversion to JSON values may produce (see ``Walk``).
    let outputBudget: Int

    /// The deepest nesting of archived objects that is followed.
    static let maximumDepth = 64

    /// How many bytes of JSON values one conversion may produce per byte of archive, plus
    /// ``outputAllowance``. Shared references let a small archive name the same large value many
    /// times; a real archive's values are smaller than the archive itself.
    static let outputPerInputByte = 4
    /// The bytes a conversion may produce on top of ``outputPerInputByte`` times the input.
    static let outputAllowance = 65_536
    /// What each value costs on top of its text: the room a JSON value takes in memory.
    static let costPerValue = 32

    /// Reads an archive.
    ///
    /// - Throws: ``MigrationError`` of kind ``MigrationError/Kind/malformedArchive``.
    init(_ data: Data) throws {
        let plist = try BinaryPropertyList(data)
        guard case .dictionary(let top) = plist.objects[plist.top] else {
            throw MigrationError.malformedArchive("the top object is not a dictionary")
        }
        let field: (String) -> Int? = { name in
            top.first { plist.objects[$0.key] == .string(name) }?.value
        }
        guard let archiver = field("$archiver"), plist.objects[archiver] == .string("NSKeyedArchiver") else {
            throw MigrationError.malformedArchive("it was not written by NSKeyedArchiver")
        }
        guard let objectsIndex = field("$objects"), case .array(let archived) = plist.objects[objectsIndex] else {
            throw MigrationError.malformedArchive("it has no $objects array")
        }
        guard let topIndex = field("$top"), case .dictionary(let roots) = plist.objects[topIndex],
            let rootReference = roots.first(where: { plist.objects[$0.key] == .string("root") }) ?? roots.first,
            case .uid(let rootUID) = plist.objects[rootReference.value], rootUID < UInt64(archived.count)
        else {
            throw MigrationError.malformedArchive("it has no root object")
        }
        self.plist = plist
        self.entries = archived
        self.root = Int(rootUID)
        self.outputBudget = Self.outputPerInputByte * data.count + Self.outputAllowance
    }

    /// The raw plist object of archive object `uid`.
    func entry(_ uid: Int) throws -> BinaryPropertyList.Object {
        guard uid >= 0, uid < entries.count else { throw MigrationError.malformedArchive("a UID points nowhere") }
        return plist.objects[entries[uid]]
    }

    /// The keys and plist values of archive object `uid`, when it is a dictionary.
    func fields(_ uid: Int) throws -> [(key: String, value: Int)]? {
        guard case .dictionary(let pairs) = try entry(uid) else { return nil }
        return try pairs.map { pair in
            guard case .string(let key) = plist.objects[pair.key] else {
                throw MigrationError.malformedArchive("an object has a key that is not a string")
            }
            return (key, pair.value)
        }
    }

    /// The class name of archive object `uid`, when it is an archived object.
    func className(of uid: Int) throws -> String? {
        guard let fields = try fields(uid), let classValue = fields.first(where: { $0.key == "$class" }),
            case .uid(let classUID) = plist.objects[classValue.value],
            let classFields = try self.fields(Int(clamping: classUID)),
            let name = classFields.first(where: { $0.key == "$classname" }),
            case .string(let className) = plist.objects[name.value]
        else { return nil }
        return className
    }

    /// The value stored under `key` in archive object `uid`.
    func value(_ key: String, in uid: Int) throws -> Value? {
        guard let fields = try fields(uid), let field = fields.first(where: { $0.key == key }) else { return nil }
        return try resolve(plist.objects[field.value])
    }

    /// An inline plist value, or the archive object a UID points to (strings and data are read
    /// through; `$null` becomes ``Value/null``).
    func resolve(_ object: BinaryPropertyList.Object) throws -> Value {
        switch object {
        case .null: return .null
        case .bool(let value): return .bool(value)
        case .integer(let value): return .integer(value)
        case .real(let value): return .real(value)
        case .date(let value): return .real(value)
        case .string(let value): return .string(value)
        case .data(let value): return .data(value)
        case .uid(let uid):
            let index = Int(clamping: uid)
            switch try entry(index) {
            case .string(let value): return value == "$null" && index == 0 ? .null : .string(value)
            case .data(let value): return .data(value)
            case .integer(let value): return .integer(value)
            case .real(let value): return .real(value)
            case .bool(let value): return .bool(value)
            case .dictionary: return .object(index)
            default: throw MigrationError.malformedArchive("a UID points to an unexpected object")
            }
        case .array, .dictionary:
            throw MigrationError.malformedArchive("a field holds a container instead of a reference")
        }
    }

    // MARK: - Typed reads

    /// A string under `key` (plain, or an `NSMutableString` object).
    func string(_ key: String, in uid: Int) throws -> String? {
        switch try value(key, in: uid) {
        case .string(let value): return value
        case .object(let object):
            if case .string(let value)? = try value("NS.string", in: object) { return value }
            return nil
        default: return nil
        }
    }

    /// A boolean under `key` (a bool or an integer).
    func bool(_ key: String, in uid: Int) throws -> Bool? {
        switch try value(key, in: uid) {
        case .bool(let value): return value
        case .integer(let value): return value != 0
        default: return nil
        }
    }

    /// An `NSDate` under `key`.
    func date(_ key: String, in uid: Int) throws -> Date? {
        guard case .object(let object)? = try value(key, in: uid) else { return nil }
        guard case .real(let seconds)? = try value("NS.time", in: object), seconds.isFinite else { return nil }
        return Date(timeIntervalSince1970: seconds + Self.referenceDateOffset)
    }

    /// An `NSURL` under `key`: `NS.relative`, resolved against `NS.base` when there is one.
    func url(_ key: String, in uid: Int, depth: Int = 0) throws -> URL? {
        guard case .object(let object)? = try value(key, in: uid) else { return nil }
        return try url(object: object, depth: depth)
    }

    func url(object: Int, depth: Int) throws -> URL? {
        guard depth < Self.maximumDepth else { throw MigrationError.malformedArchive("URLs are nested too deeply") }
        guard let relative = try string("NS.relative", in: object) else { return nil }
        if case .object(let base)? = try value("NS.base", in: object) {
            return URL(string: relative, relativeTo: try url(object: base, depth: depth + 1))?.absoluteURL
        }
        return URL(string: relative)
    }

    /// The archive object under `key`, when it is one.
    func object(_ key: String, in uid: Int) throws -> Int? {
        guard case .object(let object)? = try value(key, in: uid) else { return nil }
        return object
    }

    /// An `NSDictionary` of strings to property-list values under `key`, as JSON values.
    func dictionary(_ key: String, in uid: Int) throws -> [String: JSONValue]? {
        guard let object = try object(key, in: uid) else { return nil }
        guard case .object(let dictionary) = try jsonValue(of: object) else { return nil }
        return dictionary
    }

    func references(_ key: String, in uid: Int) throws -> [Int]? {
        guard let fields = try fields(uid), let field = fields.first(where: { $0.key == key }) else { return nil }
        guard case .array(let items) = plist.objects[field.value] else {
            throw MigrationError.malformedArchive("\(key) is not an array")
        }
        return items
    }
}
