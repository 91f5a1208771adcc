#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

extension POSIXFile {
    /// The names in the folder at `path` (without `.` and `..`), read with `readdir`: what
    /// ``FileSessionStore`` lists its keys from, in the tool's start-up path, where Foundation's
    /// listing costs several times as much; `nil` when the folder does not exist.
    ///
    /// - Throws: ``BearerError/Kind/storageFailure`` when the folder cannot be listed.
    static func names(inFolder path: String) throws -> [String]? {
        guard let folder = opendir(path) else {
            if errno == ENOENT { return nil }
            throw failure("list the session folder", path)
        }
        defer { closedir(folder) }
        var names: [String] = []
        // readdir answers nil both at the end and on an error; only an error sets errno.
        errno = 0
        while let entry = readdir(folder) {
            let name = withUnsafePointer(to: &entry.pointee.d_name) { pointer in
                pointer.withMemoryRebound(to: CChar.self, capacity: MemoryLayout.size(ofValue: pointer.pointee)) {
                    String(cString: $0)
                }
            }
            if name != "." && name != ".." { names.append(name) }
        }
        guard errno == 0 else { throw failure("list the session folder", path) }
        return names
    }
}
