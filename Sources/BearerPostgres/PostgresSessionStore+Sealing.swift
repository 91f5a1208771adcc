#if canImport(FoundationEssentials)
    public import FoundationEssentials
#else
    public import Foundation
#endif

extension PostgresSessionStore {
    /// The app's own encryption of stored sessions, for example through its key management
    /// service, so that the database holds no readable token.
    ///
    /// ``seal`` gets a session's serialized bytes and its key and returns what is stored;
    /// ``open`` reverses it. Both get the key so an authenticated cipher can bind each row to its
    /// key (as associated data): a sealed row copied under another key then fails to open instead
    /// of handing one user's session to another. A store with sealing refuses unsealed rows, and a
    /// store without it refuses sealed rows, with ``PostgresSessionStoreError/Kind/sealingFailed``.
    public struct Sealing: Sendable {
        /// Encrypts a session's bytes stored under a key.
        public var seal: @Sendable (_ plaintext: Data, _ key: String) async throws -> Data
        /// Decrypts what ``seal`` returned for the same key.
        public var open: @Sendable (_ sealed: Data, _ key: String) async throws -> Data

        /// Creates a sealing hook.
        ///
        /// - Parameters:
        ///   - seal: Encrypts a session's bytes stored under a key.
        ///   - open: Decrypts what `seal` returned for the same key.
        public init(
            seal: @escaping @Sendable (_ plaintext: Data, _ key: String) async throws -> Data,
            open: @escaping @Sendable (_ sealed: Data, _ key: String) async throws -> Data
        ) {
            self.seal = seal
            self.open = open
        }
    }

    func sealed(_ bytes: Data, key: String) async throws -> Data {
        guard let sealing else { return bytes }
        do {
            return try await sealing.seal(bytes, key)
        } catch {
            throw PostgresSessionStoreError.sealingFailed(
                "The sealing hook failed to seal the session; nothing was saved.", underlyingError: error)
        }
    }

    func opened(_ bytes: Data, isSealed: Bool, key: String) async throws -> Data {
        switch (sealing, isSealed) {
        case (nil, false):
            return bytes
        case (nil, true):
            throw PostgresSessionStoreError.sealingFailed(
                "The stored session is sealed but this store has no sealing hook; give it the app's Sealing. "
                    + "The row was not changed.")
        case (.some, false):
            throw PostgresSessionStoreError.sealingFailed(
                "The stored session is not sealed but this store seals sessions; it was refused and not changed. "
                    + "Reseal old rows by reading them with a store without sealing and saving them with this one.")
        case (let sealing?, true):
            do {
                return try await sealing.open(bytes, key)
            } catch {
                throw PostgresSessionStoreError.sealingFailed(
                    "The sealing hook failed to open the stored session; the row was not changed.",
                    underlyingError: error)
            }
        }
    }
}
