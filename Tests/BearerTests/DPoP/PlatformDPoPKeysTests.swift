import Bearer
import Foundation
import Testing

@_spi(Benchmarks) @_spi(Migration) @_spi(Testing) @testable import BearerCore

/// The platform's keys (libcrypto on Linux): made, saved as a record, rebuilt, and refused when the
/// record does not hold a key that is its own.
@Suite("DPoP: platform keys and their records")
struct PlatformDPoPKeysTests {
    @Test("A new key's record rebuilds the same key, which signs with 64-byte signatures")
    func roundTrip() async throws {
        let keys = PlatformDPoPKeys()
        let key = try await keys.makeKey()
        #expect(key.record.kind == "p256")
        #expect(key.record.privateKey.bytes?.count == 32)
        let rebuilt = try keys.key(for: key.record)
        #expect(rebuilt.record == key.record)
        #expect(try await rebuilt.signature(for: Array("message".utf8)).count == 64)
        let other = try await keys.makeKey()
        #expect(other.record.thumbprint != key.record.thumbprint, "each grant gets its own key")
    }

    @Test("A record whose public key is not its private key's own is refused")
    func mismatchedRecord() async throws {
        let keys = PlatformDPoPKeys()
        let first = try await keys.makeKey().record
        let second = try await keys.makeKey().record
        let spliced = DPoPKeyRecord(kind: "p256", privateKey: first.privateKey, publicKey: second.publicKey)
        let error = #expect(throws: BearerError.self) { try keys.key(for: spliced) }
        #expect(error?.kind == .proofOfPossession)
    }

    @Test("A record of another kind, a short key or a Secure Enclave key off Apple devices is refused, typed")
    func unusableRecords() async throws {
        let keys = PlatformDPoPKeys()
        let real = try await keys.makeKey().record
        let records = [
            DPoPKeyRecord(kind: "kms", privateKey: DPoPKeyMaterial("projects/x/keys/y"), publicKey: real.publicKey),
            DPoPKeyRecord(kind: "p256", privateKey: DPoPKeyMaterial(bytes: [1, 2, 3]), publicKey: real.publicKey),
            DPoPKeyRecord(kind: "p256", privateKey: DPoPKeyMaterial("not base64!"), publicKey: real.publicKey),
            DPoPKeyRecord(
                kind: "p256", privateKey: DPoPKeyMaterial(bytes: [UInt8](repeating: 0xFF, count: 32)),
                publicKey: real.publicKey),
        ]
        for record in records {
            let error = #expect(throws: BearerError.self) { try keys.key(for: record) }
            #expect(error?.kind == .proofOfPossession)
        }
        #if !canImport(CryptoKit)
            let enclave = DPoPKeyRecord(kind: "secure-enclave", privateKey: real.privateKey, publicKey: real.publicKey)
            #expect(throws: BearerError.self) { try keys.key(for: enclave) }
        #endif
    }

    @Test("A record's description shows the kind and thumbprint, never the private key")
    func redacted() async throws {
        let record = try await PlatformDPoPKeys().makeKey().record
        let text = "\(record) \(String(reflecting: record.privateKey))"
        #expect(!text.contains(record.privateKey.value))
        #expect(text.contains(record.thumbprint))
    }

    @Test("A DPoP session saves and reads back its key and token type; an old record reads as Bearer")
    func codable() async throws {
        let record = try await PlatformDPoPKeys().makeKey().record
        let state = AuthState(
            server: Fixtures.server, client: Fixtures.publicClient, accessToken: AccessToken("at"),
            accessTokenType: .dpop, dpopKey: record, refreshToken: RefreshToken("rt"))
        let decoded = try AuthState(encoded: try state.encoded())
        #expect(decoded == state)
        #expect(decoded.accessTokenType == .dpop)
        let bearer = AuthState(server: Fixtures.server, client: Fixtures.publicClient, accessToken: AccessToken("at"))
        let text = String(decoding: try bearer.encoded(), as: UTF8.self)
        #expect(!text.contains("tokenType") && !text.contains("dpopKey"), "a Bearer record is written as before")
        #expect(try AuthState(encoded: try bearer.encoded()).accessTokenType == .bearer)
    }

    @Test("A record whose key field is damaged cannot be read, and says so; one without it reads")
    func damagedKeyField() async throws {
        let record = try await PlatformDPoPKeys().makeKey().record
        let state = AuthState(
            server: Fixtures.server, client: Fixtures.publicClient, accessToken: AccessToken("at"),
            accessTokenType: .dpop, dpopKey: record, refreshToken: RefreshToken("rt"))
        var json = try JSONDecoder().decode([String: JSONValue].self, from: try state.encoded())
        json["dpopKey"] = .object([
            "kind": .string("p256"), "private": .string("x"), "jwk": .object(["kty": .string("RSA")]),
        ])
        let damaged = try JSONEncoder().encode(json)
        let error = #expect(throws: BearerError.self) { try AuthState(encoded: damaged) }
        #expect(error?.kind == .unreadableSession)
        json["dpopKey"] = nil
        let lost = try AuthState(encoded: try JSONEncoder().encode(json))
        #expect(lost.accessTokenType == .dpop && lost.dpopKey == nil && lost.refreshToken?.value == "rt")
    }
}
