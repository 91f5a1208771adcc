import Bearer
import Testing

@_spi(Internals) @testable import BearerCore

@Suite("SHA-256")
struct SHA256Tests {
    @Test(
        "NIST FIPS 180-4 example vectors",
        arguments: [
            ("", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"),
            ("abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"),
            (
                "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq",
                "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"
            ),
            (
                "abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmnoijklmnopjklmnopqklmnopqrlmnopqrsmnopqrstnopqrstu",
                "cf5b16a778af8380036ce59e7b0492370b249b11e8f07a51afac45037afee9d1"
            ),
        ])
    func nistVectors(message: String, digest: String) {
        #expect(SHA256.hash(message.utf8).hex == digest)
    }

    @Test("One million \"a\" (NIST)")
    func oneMillionA() {
        var hasher = SHA256()
        let chunk = [UInt8](repeating: UInt8(ascii: "a"), count: 1000)
        for _ in 0..<1000 { hasher.update(chunk) }
        #expect(hasher.finalize().hex == "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")
    }

    @Test("Every length from 0 to 200 bytes matches digests computed by another implementation")
    func everyLengthUpTo200MatchesReferenceDigests() {
        #expect(referenceDigestsByLength.count == 201)
        for (length, expected) in referenceDigestsByLength.enumerated() {
            let message = (0..<length).map { UInt8(($0 * 31 + length) % 256) }
            #expect(SHA256.hash(message).hex == expected, "length \(length)")
        }
    }

    @Test("Hashing in pieces gives the same digest as hashing at once")
    func incrementalUpdatesMatchOneShot() {
        let message = (0..<1000).map { UInt8(truncatingIfNeeded: $0 &* 7) }
        let expected = SHA256.hash(message)
        for pieceSize in [1, 3, 55, 56, 63, 64, 65, 127, 999] {
            var hasher = SHA256()
            var start = 0
            while start < message.count {
                let end = min(start + pieceSize, message.count)
                hasher.update(message[start..<end])
                start = end
            }
            #expect(hasher.finalize() == expected, "piece size \(pieceSize)")
        }
    }
}
