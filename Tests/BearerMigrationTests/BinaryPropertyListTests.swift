import Foundation
import Testing

@testable import BearerMigration

@Suite("Binary property lists and keyed archives")
struct BinaryPropertyListTests {
    private func roundTrip(_ objects: [BinaryPropertyList.Object], top: Int) throws -> BinaryPropertyList {
        var writer = BinaryPropertyListWriter()
        for object in objects { _ = writer.add(object) }
        return try BinaryPropertyList(writer.encoded(top: top))
    }

    @Test("Every object type survives writing and reading, including long and non-ASCII values")
    func objectTypes() throws {
        let long = String(repeating: "x", count: 300)
        let objects: [BinaryPropertyList.Object] = [
            .null, .bool(true), .bool(false), .integer(0), .integer(255), .integer(65_536), .integer(-1),
            .integer(Int64.max), .real(1.5), .date(-978_307_200), .data(Data(repeating: 7, count: 20)), .string(long),
            .string("héllo 😀"), .uid(3), .uid(70_000), .array([1, 2, 3]), .dictionary([(key: 12, value: 11)]),
        ]
        let list = try roundTrip(objects, top: 16)
        #expect(list.objects == objects)
        #expect(list.top == 16)
    }

    @Test("Malformed lists are typed errors, never crashes")
    func malformed() throws {
        var writer = BinaryPropertyListWriter()
        _ = writer.add(.string("a"))
        let index = writer.add(.array([0]))
        let good = [UInt8](writer.encoded(top: index))
        var cases: [[UInt8]] = [[], Array("bplist00".utf8), Array("bplist01".utf8) + good.dropFirst(8)]
        var badTrailer = good
        badTrailer[badTrailer.count - 26] = 0  // offset size 0
        cases.append(badTrailer)
        var badReference = good
        badReference[badReference.count - 9] = 9  // top object 9 of 2
        cases.append(badReference)
        var badOffset = good
        badOffset[badOffset.count - 1] = 0xFF  // offset table past the end
        cases.append(badOffset)
        for bytes in cases {
            #expect(throws: MigrationError.self) { try BinaryPropertyList(Data(bytes)) }
        }
        for index in good.indices {
            var flipped = good
            flipped[index] ^= 0xFF
            _ = try? BinaryPropertyList(Data(flipped))
        }
    }

    @Test("Shared references that would expand exponentially are refused")
    func sharedReferenceExplosion() throws {
        var archive = KeyedArchiveWriter()
        var node = archive.string("leaf")
        let keys = [archive.string("a"), archive.string("b")]
        for _ in 0..<40 {
            node = archive.dictionary(keys: keys, objects: [node, node])
        }
        let rootFields = [("additionalParameters", KeyedArchiveWriter.Field.object(node))]
        let root = archive.object("Holder", rootFields)
        let keyed = try KeyedArchive(archive.finish(root: root))
        let error = #expect(throws: MigrationError.self) {
            try keyed.dictionary("additionalParameters", in: keyed.root)
        }
        #expect(error?.reason.contains("shared references") == true)
        var small = KeyedArchiveWriter()
        let leaf = small.string("leaf")
        let shared = small.dictionary(keys: [small.string("a"), small.string("b")], objects: [leaf, leaf])
        let holder = small.object("Holder", [("additionalParameters", .object(shared))])
        let readable = try KeyedArchive(small.finish(root: holder))
        #expect(
            try readable.dictionary("additionalParameters", in: readable.root) == [
                "a": .string("leaf"), "b": .string("leaf"),
            ])
    }
}
