import Bearer
import Foundation

// Converting archive objects to JSON values, within the output budget that keeps a small archive
// from claiming memory out of proportion to its size.
extension KeyedArchive {
    /// The state of a conversion: the objects on the current path (to catch cycles), how many
    /// more bytes may be produced (so shared references cannot make the output explode: each
    /// value costs ``costPerValue`` plus the bytes of its text), and the objects already
    /// converted, so that each is read once however often it is referenced, while every
    /// reference is still charged its full cost.
    struct Walk {
        var path: Set<Int> = []
        var budget: Int
        var converted: [Int: (value: JSONValue, cost: Int)] = [:]
    }

    /// Converts archive object `uid` (a collection, string, date or URL) to a JSON value: dates
    /// become seconds since 1970, URLs and strings strings, data base64 strings.
    func jsonValue(of uid: Int) throws -> JSONValue {
        var walk = Walk(budget: outputBudget)
        return try jsonValue(uid, walk: &walk)
    }

    fileprivate func jsonValue(_ uid: Int, walk: inout Walk) throws -> JSONValue {
        if let done = walk.converted[uid] {
            try spend(done.cost, from: &walk)
            return done.value
        }
        guard walk.path.count < Self.maximumDepth else {
            throw MigrationError.malformedArchive("collections nest too deeply")
        }
        guard walk.path.insert(uid).inserted else { throw MigrationError.malformedArchive("an object contains itself") }
        defer { walk.path.remove(uid) }
        let budgetBefore = walk.budget
        let value = try convertObject(uid, walk: &walk)
        walk.converted[uid] = (value, budgetBefore - walk.budget)
        return value
    }

    /// Converts archive object `uid`, charging what its contents produce.
    fileprivate func convertObject(_ uid: Int, walk: inout Walk) throws -> JSONValue {
        if let date = try dateObject(uid) {
            return .number(date.timeIntervalSince1970)
        }
        let keys = try references("NS.keys", in: uid)
        let objects = try references("NS.objects", in: uid)
        if let keys, let objects {
            guard keys.count == objects.count else {
                throw MigrationError.malformedArchive("a dictionary has \(keys.count) keys and \(objects.count) values")
            }
            try spend(keys.count * Self.costPerValue, from: &walk)
            var result: [String: JSONValue] = [:]
            for (key, object) in zip(keys, objects) {
                guard case .string(let name) = try resolve(plist.objects[key]) else {
                    throw MigrationError.malformedArchive("a dictionary key is not a string")
                }
                result[name] = try convert(resolve(plist.objects[object]), walk: &walk)
            }
            return .object(result)
        }
        if let objects {
            var items: [JSONValue] = []
            for object in objects { items.append(try convert(resolve(plist.objects[object]), walk: &walk)) }
            return .array(items)
        }
        if let string = try string("NS.string", in: uid) { return .string(string) }
        if let url = try url(object: uid, depth: 0) { return .string(url.absoluteString) }
        throw MigrationError.malformedArchive(
            "an archived \(try className(of: uid) ?? "object") cannot be read as a value")
    }

    fileprivate func dateObject(_ uid: Int) throws -> Date? {
        guard case .real(let seconds)? = try value("NS.time", in: uid), seconds.isFinite else { return nil }
        return Date(timeIntervalSince1970: seconds + Self.referenceDateOffset)
    }

    fileprivate func convert(_ value: Value, walk: inout Walk) throws -> JSONValue {
        let converted: JSONValue
        let textBytes: Int
        switch value {
        case .null: (converted, textBytes) = (.null, 0)
        case .bool(let value): (converted, textBytes) = (.bool(value), 0)
        case .integer(let value): (converted, textBytes) = (.number(Double(value)), 0)
        case .real(let value): (converted, textBytes) = (.number(value), 0)
        case .string(let value): (converted, textBytes) = (.string(value), value.utf8.count)
        case .data(let value):
            // Charged before encoding: base64 takes 4 bytes for every 3.
            try charge(value.count / 3 * 4 + 4, to: &walk)
            return .string(value.base64EncodedString())
        case .object(let object):
            try charge(0, to: &walk)
            return try jsonValue(object, walk: &walk)
        }
        try charge(textBytes, to: &walk)
        return converted
    }

    /// Charges one value of `textBytes` bytes of text to the walk's budget.
    fileprivate func charge(_ textBytes: Int, to walk: inout Walk) throws {
        try spend(Self.costPerValue + textBytes, from: &walk)
    }

    /// Takes `bytes` from the walk's budget.
    fileprivate func spend(_ bytes: Int, from walk: inout Walk) throws {
        walk.budget -= bytes
        guard walk.budget >= 0 else {
            throw MigrationError.malformedArchive(
                "shared references expand to more than \(outputBudget) bytes of values, "
                    + "far more than the archive holds")
        }
    }

    /// The plist indices of the references in an `NS.keys` / `NS.objects` array.
}
