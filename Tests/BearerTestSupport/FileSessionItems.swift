import Bearer
@_spi(Testing) import BearerCore
package import Foundation

/// ``SessionItems`` kept as one file per key in a folder, standing in for the keychain in tests:
/// every process given the same folder sees the same items, as an app and its widget see the same
/// keychain access group. A write replaces the file atomically; the bytes are not protected, so
/// this never holds anything but test sessions.
package struct FileSessionItems: SessionItems {
    /// The folder of the item files.
    package let directory: URL

    /// Items in `directory`, which is created when first written.
    package init(directory: URL) {
        self.directory = directory
    }

    private func url(for key: String) -> URL {
        let name = Data(key.utf8).base64EncodedString().replacingOccurrences(of: "/", with: "_")
        return directory.appendingPathComponent(name + ".item", isDirectory: false)
    }

    /// The bytes of `key`'s file, or `nil` when there is none.
    package func read(key: String) throws -> Data? {
        let url = url(for: key)
        guard FileManager.default.fileExists(atPath: url.path) else { return nil }
        return try Data(contentsOf: url)
    }

    /// Replaces `key`'s file atomically.
    package func write(_ data: Data, key: String) throws {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        try data.write(to: url(for: key), options: .atomic)
    }

    /// Removes `key`'s file, if any.
    package func delete(key: String) throws {
        let url = url(for: key)
        guard FileManager.default.fileExists(atPath: url.path) else { return }
        try FileManager.default.removeItem(at: url)
    }

    /// The keys that have a file.
    package func keys() throws -> [String] {
        guard FileManager.default.fileExists(atPath: directory.path) else { return [] }
        return try FileManager.default.contentsOfDirectory(atPath: directory.path).compactMap { name in
            guard name.hasSuffix(".item") else { return nil }
            let encoded = String(name.dropLast(".item".count)).replacingOccurrences(of: "_", with: "/")
            return Data(base64Encoded: encoded).map { String(decoding: $0, as: UTF8.self) }
        }
    }
}
