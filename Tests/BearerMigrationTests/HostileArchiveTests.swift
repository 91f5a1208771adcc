import Foundation
import Testing

@testable import BearerMigration

@Suite("Hostile property lists and archives cost memory in proportion to their size")
struct HostileArchiveTests {
    /// A `bplist00` whose object area is `count` data objects, each starting inside the one before
    /// it: object `k` is a 4-byte header whose length covers every header after it.
    private func nestedDataPlist(count: Int) -> Data {
        var bytes = Array("bplist00".utf8)
        for index in 0..<count {
            let length = 4 * (count - index - 1)
            bytes += [0x4F, 0x11, UInt8(length >> 8), UInt8(length & 0xFF)]
        }
        let tableOffset = bytes.count
        for index in 0..<count {
            let offset = 8 + 4 * index
            bytes += [UInt8(offset >> 16), UInt8((offset >> 8) & 0xFF), UInt8(offset & 0xFF)]
        }
        bytes += [0, 0, 0, 0, 0, 0, 3, 2]
        bytes += bigEndian(count) + bigEndian(0) + bigEndian(tableOffset)
        return Data(bytes)
    }

    private func bigEndian(_ value: Int) -> [UInt8] {
        (0..<8).reversed().map { UInt8(truncatingIfNeeded: value >> ($0 * 8)) }
    }

    @Test("Offset-table entries that point inside another object are refused")
    func overlappingObjectsAreRefused() throws {
        let plist = nestedDataPlist(count: 2_000)
        let error = #expect(throws: MigrationError.self) { try BinaryPropertyList(plist) }
        #expect(error?.kind == .malformedArchive)
        #expect(error?.reason.contains("overlap") == true)
    }

    @Test("Table entries that name the same offset share one object")
    func repeatedOffsetsAreShared() throws {
        var bytes = Array("bplist00".utf8) + [0x43] + Array("abc".utf8) + [0xA2, 0, 0]
        let tableOffset = bytes.count
        bytes += [8, 8, 12]
        bytes += [0, 0, 0, 0, 0, 0, 1, 1] + bigEndian(3) + bigEndian(2) + bigEndian(tableOffset)
        let list = try BinaryPropertyList(Data(bytes))
        #expect(list.objects == [.data(Data("abc".utf8)), .data(Data("abc".utf8)), .array([0, 0])])
    }

    @Test("A data object is read as it was written, at any position in the input")
    func dataObjectsAreSlicesOfTheInput() throws {
        var writer = BinaryPropertyListWriter()
        let payload = Data((0..<300).map { UInt8(truncatingIfNeeded: $0) })
        _ = writer.add(.string("before"))
        let index = writer.add(.data(payload))
        let encoded = Data([0xFF, 0xFF]) + writer.encoded(top: index)
        let list = try BinaryPropertyList(encoded.dropFirst(2))
        guard case .data(let read) = list.objects[index] else {
            Issue.record("the data object was not read as data")
            return
        }
        #expect(Array(read) == Array(payload))
    }

    @Test("One 50 KB blob referenced 20,000 times is refused instead of being copied each time")
    func sharedBlobIsRefused() throws {
        var archive = KeyedArchiveWriter()
        let blob = archive.data(Data(repeating: 0xAB, count: 50_000))
        // 20,000 archived arrays of one element each, so that a budget counted in archived
        // objects would let every reference through.
        let list = archive.array((0..<20_000).map { _ in archive.array([blob]) })
        let parameters = archive.dictionary(keys: [archive.string("blobs")], objects: [list])
        let holder = archive.object("Holder", [("additionalParameters", .object(parameters))])
        let data = archive.finish(root: holder)
        let keyed = try KeyedArchive(data)
        #expect(keyed.outputBudget < 8 * data.count)
        let error = #expect(throws: MigrationError.self) {
            try keyed.dictionary("additionalParameters", in: keyed.root)
        }
        #expect(error?.kind == .malformedArchive)
        #expect(error?.reason.contains("shared references") == true)
    }

    @Test("A blob referenced a few times is read, each reference in full")
    func sharedBlobWithinBudgetIsRead() throws {
        var archive = KeyedArchiveWriter()
        let blob = archive.data(Data(repeating: 0xAB, count: 3_000))
        let list = archive.array(Array(repeating: blob, count: 5))
        let parameters = archive.dictionary(keys: [archive.string("blobs")], objects: [list])
        let holder = archive.object("Holder", [("additionalParameters", .object(parameters))])
        let keyed = try KeyedArchive(archive.finish(root: holder))
        let read = try #require(try keyed.dictionary("additionalParameters", in: keyed.root))
        guard case .array(let items)? = read["blobs"] else {
            Issue.record("the array was not read")
            return
        }
        #expect(items.count == 5)
        #expect(items.allSatisfy { $0 == .string(Data(repeating: 0xAB, count: 3_000).base64EncodedString()) })
    }
}
