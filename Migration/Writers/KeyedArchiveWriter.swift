import Bearer
import Foundation

/// Builds an `NSKeyedArchiver` archive: `$objects` entries referring to each other by UID, with
/// `$class` entries naming each archived class and its superclasses.
struct KeyedArchiveWriter {
    /// A value stored under a key of an archived object.
    enum Field {
        case object(Int)
        case bool(Bool)
        case integer(Int64)
        case real(Double)
    }

    private var plist = BinaryPropertyListWriter()
    /// The plist indices of the `$objects` entries, by UID.
    private var entries: [Int] = []
    private var classes: [String: Int] = [:]
    private var strings: [String: Int] = [:]

    init() {
        entries.append(plist.add(.string("$null")))
    }

    /// Archives a string, once per distinct value.
    mutating func string(_ value: String) -> Int {
        if let uid = strings[value] { return uid }
        entries.append(plist.add(.string(value)))
        strings[value] = entries.count - 1
        return entries.count - 1
    }

    /// Archives an object of `className` with `fields`.
    mutating func object(_ className: String, _ fields: [(String, Field)], superclasses: [String] = ["NSObject"]) -> Int
    {
        let classUID = classEntry(className, superclasses: superclasses)
        var pairs: [(key: Int, value: Int)] = []
        for (key, field) in fields {
            let value: Int
            switch field {
            case .object(let uid): value = plist.add(.uid(UInt64(uid)))
            case .bool(let flag): value = plist.add(.bool(flag))
            case .integer(let number): value = plist.add(.integer(number))
            case .real(let number): value = plist.add(.real(number))
            }
            pairs.append((plist.add(.string(key)), value))
        }
        pairs.append((plist.add(.string("$class")), plist.add(.uid(UInt64(classUID)))))
        entries.append(plist.add(.dictionary(pairs)))
        return entries.count - 1
    }

    /// Archives an `NSURL`.
    mutating func url(_ url: URL) -> Int {
        object("NSURL", [("NS.base", .object(0)), ("NS.relative", .object(string(url.absoluteString)))])
    }

    /// Archives an `NSDate`.
    mutating func date(_ date: Date) -> Int {
        object("NSDate", [("NS.time", .real(date.timeIntervalSince1970 - KeyedArchive.referenceDateOffset))])
    }

    /// Archives an `NSError` without user info.
    mutating func error(code: Int64, domain: String) -> Int {
        object("NSError", [("NSCode", .integer(code)), ("NSDomain", .object(string(domain)))])
    }

    /// Archives a dictionary of JSON values as `NSDictionary` (or a subclass), with `NSArray`,
    /// `NSString` and `NSNumber` inside.
    mutating func dictionary(_ values: [String: JSONValue], className: String = "NSDictionary") -> Int {
        let keys = values.keys.sorted()
        let keyUIDs = keys.map { string($0) }
        let valueUIDs = keys.map { value(values[$0] ?? .null) }
        return dictionary(keys: keyUIDs, objects: valueUIDs, className: className)
    }

    /// Archives an `NSDictionary` (or a subclass) whose keys and values are the objects `keys` and `objects`.
    mutating func dictionary(keys: [Int], objects: [Int], className: String = "NSDictionary") -> Int {
        let keyArray = plist.add(.array(keys.map { plist.add(.uid(UInt64($0))) }))
        let valueArray = plist.add(.array(objects.map { plist.add(.uid(UInt64($0))) }))
        let classUID = classEntry(className, superclasses: ["NSObject"])
        entries.append(
            plist.add(
                .dictionary([
                    (plist.add(.string("NS.keys")), keyArray),
                    (plist.add(.string("NS.objects")), valueArray),
                    (plist.add(.string("$class")), plist.add(.uid(UInt64(classUID)))),
                ])
            )
        )
        return entries.count - 1
    }

    /// Archives an `NSArray` whose elements are the objects `objects`.
    mutating func array(_ objects: [Int]) -> Int {
        let array = plist.add(.array(objects.map { plist.add(.uid(UInt64($0))) }))
        let classUID = classEntry("NSArray", superclasses: ["NSObject"])
        entries.append(
            plist.add(
                .dictionary([
                    (plist.add(.string("NS.objects")), array),
                    (plist.add(.string("$class")), plist.add(.uid(UInt64(classUID)))),
                ])
            )
        )
        return entries.count - 1
    }

    /// Archives an `NSData`.
    mutating func data(_ value: Data) -> Int {
        entries.append(plist.add(.data(value)))
        return entries.count - 1
    }

    private mutating func value(_ value: JSONValue) -> Int {
        switch value {
        case .null:
            return 0
        case .bool(let flag):
            entries.append(plist.add(.bool(flag)))
        case .number(let number):
            if number.rounded() == number, abs(number) < 9.0e15 {
                entries.append(plist.add(.integer(Int64(number))))
            } else {
                entries.append(plist.add(.real(number)))
            }
        case .string(let text):
            return string(text)
        case .array(let items):
            return array(items.map { self.value($0) })
        case .object(let fields):
            return dictionary(fields)
        }
        return entries.count - 1
    }

    private mutating func classEntry(_ name: String, superclasses: [String]) -> Int {
        if let uid = classes[name] { return uid }
        let names = ([name] + superclasses).map { plist.add(.string($0)) }
        entries.append(
            plist.add(
                .dictionary([
                    (plist.add(.string("$classname")), plist.add(.string(name))),
                    (plist.add(.string("$classes")), plist.add(.array(names))),
                ])
            )
        )
        classes[name] = entries.count - 1
        return entries.count - 1
    }

    /// The archive's bytes, with `root` as the root object.
    mutating func finish(root: Int) -> Data {
        let objects = plist.add(.array(entries))
        let top = plist.add(.dictionary([(plist.add(.string("root")), plist.add(.uid(UInt64(root))))]))
        let archive = plist.add(
            .dictionary([
                (plist.add(.string("$version")), plist.add(.integer(100_000))),
                (plist.add(.string("$archiver")), plist.add(.string("NSKeyedArchiver"))),
                (plist.add(.string("$top")), top),
                (plist.add(.string("$objects")), objects),
            ])
        )
        return plist.encoded(top: archive)
    }
}
