#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

extension FileSessionStore {
    /// A key's session file while its lock is held, with the space reserved for its next save.
    public final class Access: ExclusiveSessionAccess, @unchecked Sendable {
        // Unchecked: `knownCopy` is touched only while holding `lock`.
        private let path: String
        private let folder: String
        private let fileLock: FileLock
        private let sessionLock: SessionFileLock
        private let lock = Lock()
        private let reservedSpace = ReservedSpace()
        /// The session as this holder last read or wrote the file (`.some(nil)`: no file); `nil`
        /// until it has. No other process writes the file while the lock is held.
        private var knownCopy: AuthState??

        init(path: String, folder: String, lock: FileLock, sessionLock: SessionFileLock) {
            self.path = path
            self.folder = folder
            self.fileLock = lock
            self.sessionLock = sessionLock
        }

        /// Whether no other process can have written the file since this holder took the lock:
        /// the lock file is still the one locked, or the session file is still the one locked.
        private var isStillExclusive: Bool {
            fileLock.isStillNamedByPath || sessionLock.holdsNamedFile
        }

        /// Reads the session file.
        ///
        /// - Throws: As ``FileSessionStore/load(key:)``.
        public func load() async throws -> AuthState? {
            let copy = try FileSessionStore.decode(try POSIXFile.readSecret(at: path), at: path)
            lock.withLock { knownCopy = .some(copy) }
            return copy
        }

        /// Saves `state` when the file still holds `expected`, compared with the copy this holder
        /// read or wrote under the same lock, so a refresh's save does not read the file again;
        /// the file is read again when both the lock file and the session file were removed or
        /// replaced meanwhile, as another process may then have written it.
        ///
        /// - Throws: ``BearerError/Kind/storedCopyChanged`` when the file holds another session;
        ///   what ``write(_:)`` throws.
        public func save(_ state: AuthState, replacing expected: AuthState?) async throws {
            let stored: AuthState?
            if let known = lock.withLock({ knownCopy }), isStillExclusive {
                stored = known
            } else {
                stored = try await load()
            }
            guard stored == expected else { throw BearerError.storedCopyChanged(from: expected, to: stored) }
            try await write(state)
        }

        /// Writes `state` atomically, in a file of mode 0600, into the space reserved by
        /// ``prepareToSave()`` when there is some; the new file is locked before it is renamed
        /// into place, and stays locked while this holder holds the lock.
        public func write(_ state: AuthState) async throws {
            let data = try state.encoded()
            lock.withLock { knownCopy = .some(state) }
            do {
                let written = try POSIXFile.writeAtomically(
                    data, to: path, directory: folder, into: reservedSpace.take(), keepingLock: true)
                sessionLock.move(to: written)
            } catch {
                // The file's copy is unknown now: a later save under this lock reads it again.
                lock.withLock { knownCopy = nil }
                throw error
            }
        }

        /// Removes the session file.
        public func remove() async throws {
            try POSIXFile.remove(at: path, directory: folder)
            lock.withLock { knownCopy = .some(nil) }
        }

        /// Checks that no other process can hold the key's lock now (the lock file or the session
        /// file is still the one locked, see ``FileSessionStore``), then allocates the disk space
        /// of the next save, once: ``FileSessionStore/reservedSpace`` bytes, or twice the current
        /// file if larger.
        ///
        /// - Throws: ``BearerError/Kind/storageFailure`` when the lock file was removed or
        ///   replaced while held and there is no session file locked, or the space cannot be
        ///   allocated.
        public func prepareToSave() async throws {
            if !sessionLock.holdsNamedFile { try fileLock.checkStillNamedByPath() }
            try POSIXFile.reserve(
                atLeast: FileSessionStore.reservedSpace, for: path, directory: folder, into: reservedSpace)
        }

        /// Removes the reserved file when no save used it.
        func releaseReservedSpace() {
            reservedSpace.release()
        }
    }
}
