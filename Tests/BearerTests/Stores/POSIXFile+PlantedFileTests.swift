import Bearer
import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A session file is checked (its folder, its type) before it is opened, and opened without
/// blocking, so something planted in its place is refused at once.
@Suite("Anything but a regular file planted as the session file is refused, never waited on")
struct PlantedFileTests {
    static let kinds = ["fifo", "directory", "socket", "symlink-to-fifo"]

    @Test(
        "A FIFO, a folder, a socket or a symbolic link as the session file is an insecureStorage error",
        arguments: kinds)
    func planted(kind: String) async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "bearer-planted-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        chmod(folder.path, 0o700)
        let store = FileSessionStore(directory: folder)
        let path = try store.fileURL(for: "default").path
        switch kind {
        case "fifo":
            #expect(mkfifo(path, 0o600) == 0)
        case "directory":
            #expect(mkdir(path, 0o700) == 0)
        case "socket":
            #expect(try socketFile(at: path))
        default:
            let target = folder.appendingPathComponent("target").path
            #expect(mkfifo(target, 0o600) == 0)
            #expect(symlink(target, path) == 0)
        }
        let error = await #expect(throws: BearerError.self) { try await store.load(key: "default") }
        #expect(error?.kind == .insecureStorage)
    }

    private func socketFile(at path: String) throws -> Bool {
        #if canImport(Darwin)
            let descriptor = socket(AF_UNIX, SOCK_STREAM, 0)
        #else
            let descriptor = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        #endif
        defer { close(descriptor) }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        guard bytes.count < MemoryLayout.size(ofValue: address.sun_path) else { return false }
        withUnsafeMutableBytes(of: &address.sun_path) { buffer in
            for (index, byte) in bytes.enumerated() { buffer[index] = byte }
        }
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) == 0
            }
        }
    }
}
