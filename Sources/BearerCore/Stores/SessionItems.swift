#if canImport(FoundationEssentials)
    public import FoundationEssentials
#else
    public import Foundation
#endif

/// Where an ``ItemSessionStore`` keeps the encoded session of each key: on Apple platforms the
/// keychain's generic-password items (`KeychainSessionStore`), which every process of an app group
/// with the same keychain access group reads and writes.
///
/// An implementation only moves bytes; what they mean, and when another process may touch them,
/// is decided by ``ItemSessionStore``.
@_spi(Bridge) @_spi(Testing) public protocol SessionItems: Sendable {
    /// The bytes saved under `key`, or `nil` when there is no item.
    ///
    /// - Throws: ``BearerError`` when an item exists but cannot be read.
    func read(key: String) throws -> Data?

    /// Replaces the bytes saved under `key` (adding the item when it is missing).
    ///
    /// - Throws: ``BearerError`` when they cannot be written; the previous item is then unchanged.
    func write(_ data: Data, key: String) throws

    /// Removes the item of `key`; a missing item is not an error.
    ///
    /// - Throws: ``BearerError`` when it cannot be removed.
    func delete(key: String) throws

    /// The keys that have an item, in any order.
    ///
    /// - Throws: ``BearerError`` when the items cannot be listed.
    func keys() throws -> [String]
}
