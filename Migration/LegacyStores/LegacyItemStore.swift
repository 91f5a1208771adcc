import Bearer
@_spi(Internals) import BearerCore
public import Foundation

/// Where a legacy library kept its items: named blobs that can be read and removed.
public protocol LegacyItemStore: Sendable {
    /// Reads the item `name`.
    ///
    /// - Parameter name: The item's name.
    /// - Returns: Its bytes, or `nil` when there is no such item.
    /// - Throws: ``MigrationError/Kind/storeFailure`` when it exists but cannot be read.
    func read(_ name: String) async throws -> Data?

    /// Writes the item `name` (used to roll a session back to a legacy format).
    ///
    /// - Parameters:
    ///   - data: The bytes.
    ///   - name: The item's name.
    /// - Throws: ``MigrationError/Kind/storeFailure``.
    func write(_ data: Data, to name: String) async throws

    /// Removes the item `name`; a missing item is not an error.
    ///
    /// - Parameter name: The item's name.
    /// - Throws: ``MigrationError/Kind/storeFailure``.
    func remove(_ name: String) async throws
}

/// A ``LegacyItemStore`` in memory, for tests.
public actor InMemoryLegacyStore: LegacyItemStore {
    private var items: [String: Data]

    /// Creates a store holding `items`.
    ///
    /// - Parameter items: The items by name.
    public init(_ items: [String: Data] = [:]) {
        self.items = items
    }

    /// Reads an item.
    public func read(_ name: String) async throws -> Data? { items[name] }

    /// Writes an item.
    public func write(_ data: Data, to name: String) async throws { items[name] = data }

    /// Removes an item.
    public func remove(_ name: String) async throws { items[name] = nil }
}

/// A ``LegacyItemStore`` over a folder with one file per item (how command-line tools kept them).
public struct LegacyDirectoryStore: LegacyItemStore {
    /// The folder.
    public let directory: URL

    /// Creates a store over `directory`.
    ///
    /// - Parameter directory: The folder holding the item files.
    public init(directory: URL) {
        self.directory = directory
    }

    private func path(_ name: String) throws -> URL {
        guard !name.isEmpty, !name.contains("/"), name != ".", name != ".." else {
            throw MigrationError.storeFailure(
                "\"\(name)\" is not a valid item name; use a file name without \"/\", other than \".\" and \"..\".")
        }
        return directory.appendingPathComponent(name, isDirectory: false)
    }

    /// Reads an item file.
    public func read(_ name: String) async throws -> Data? {
        let url = try path(name)
        guard FileManager.default.fileExists(atPath: url.path) else { return nil }
        do {
            return try Data(contentsOf: url)
        } catch {
            throw MigrationError.storeFailure(
                "Cannot read \(url.path): \(error.localizedDescription); check the file's permissions.")
        }
    }

    /// Writes an item file atomically with mode 0600, in a folder of mode 0700.
    public func write(_ data: Data, to name: String) async throws {
        let url = try path(name)
        do {
            try PrivateFile.write(data, to: url)
        } catch {
            throw MigrationError.storeFailure(
                "Cannot write \(url.path): \(error); check the folder's permissions and free space.")
        }
    }

    /// Removes an item file.
    public func remove(_ name: String) async throws {
        let url = try path(name)
        guard FileManager.default.fileExists(atPath: url.path) else { return }
        do {
            try FileManager.default.removeItem(at: url)
        } catch {
            throw MigrationError.storeFailure(
                "Cannot remove \(url.path): \(error.localizedDescription); check the folder's permissions, or remove the file by hand."
            )
        }
    }
}
