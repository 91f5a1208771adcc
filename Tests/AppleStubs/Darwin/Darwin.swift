// swift-format-ignore-file
// The Darwin module as Swift code sees it on an Apple platform: Libc and xnu's C declarations (as
// Swift's importer turns them into Swift) and the parts of Swift's own Darwin overlay
// (swift/stdlib/public/Platform/Platform.swift) the package uses: `errno`, `stdout`, `stderr`,
// `SIG_DFL`, `SIG_IGN`, the variadic `open` and `fcntl`. Imported C functions have discardable
// results (`@discardableResult` here). Headers without nullability annotations
// import their pointers as implicitly unwrapped optionals, as here. Each declaration names its
// header; the C types are in Types/ (module _DarwinTypes). Tests/AppleStubs/Darwin/README.md lists
// the sources and what was cross-checked. Never shipped or run.
@_exported public import _DarwinTypes

// MARK: Swift's Darwin overlay (Platform.swift)

/// `errno` is `(*__error())` in bsd/sys/errno.h; the overlay makes it a variable.
public var errno: Int32 {
    get { fatalError("stub") }
    set { fatalError("stub") }
}
/// Libc stdio.h: `#define stdout __stdoutp`; the overlay gives `stdin`, `stdout`, `stderr`.
public var stdin: UnsafeMutablePointer<FILE> {
    get { fatalError("stub") }
    set { fatalError("stub") }
}
public var stdout: UnsafeMutablePointer<FILE> {
    get { fatalError("stub") }
    set { fatalError("stub") }
}
public var stderr: UnsafeMutablePointer<FILE> {
    get { fatalError("stub") }
    set { fatalError("stub") }
}
/// The overlay's `SIG_DFL` is `sig_t?` (nil); `SIG_IGN` is a `sig_t`. Glibc's are `sighandler_t`.
public var SIG_DFL: sig_t? { fatalError("stub") }
public var SIG_IGN: sig_t { fatalError("stub") }
public var SIG_ERR: sig_t { fatalError("stub") }
/// Libc fcntl.h `int open(const char *, int, ...)`: the overlay's two forms.
@discardableResult public func open(_ path: UnsafePointer<CChar>, _ oflag: Int32) -> Int32 { fatalError("stub") }
@discardableResult public func open(_ path: UnsafePointer<CChar>, _ oflag: Int32, _ mode: mode_t) -> Int32 { fatalError("stub") }
/// Libc fcntl.h `int fcntl(int, int, ...)`: the overlay's forms.
@discardableResult public func fcntl(_ fd: Int32, _ cmd: Int32) -> Int32 { fatalError("stub") }
@discardableResult public func fcntl(_ fd: Int32, _ cmd: Int32, _ value: Int32) -> Int32 { fatalError("stub") }
@discardableResult public func fcntl(_ fd: Int32, _ cmd: Int32, _ ptr: UnsafeMutableRawPointer) -> Int32 { fatalError("stub") }

// MARK: bsd/sys/errno.h

public var EPERM: Int32 { 1 }
public var ENOENT: Int32 { 2 }
public var ESRCH: Int32 { 3 }
public var EINTR: Int32 { 4 }
public var EIO: Int32 { 5 }
public var ENXIO: Int32 { 6 }
public var EBADF: Int32 { 9 }
public var ECHILD: Int32 { 10 }
public var ENOMEM: Int32 { 12 }
public var EACCES: Int32 { 13 }
public var EEXIST: Int32 { 17 }
public var ENOTDIR: Int32 { 20 }
public var EISDIR: Int32 { 21 }
public var EINVAL: Int32 { 22 }
public var ENOSPC: Int32 { 28 }
public var EPIPE: Int32 { 32 }
public var ERANGE: Int32 { 34 }
public var EAGAIN: Int32 { 35 }              // Glibc: 11
public var EWOULDBLOCK: Int32 { EAGAIN }
public var EINPROGRESS: Int32 { 36 }         // Glibc: 115
public var EADDRINUSE: Int32 { 48 }          // Glibc: 98
public var ECONNRESET: Int32 { 54 }          // Glibc: 104
public var ECONNREFUSED: Int32 { 61 }        // Glibc: 111
public var ELOOP: Int32 { 62 }               // Glibc: 40
public var EOPNOTSUPP: Int32 { 102 }         // Glibc: 95
public var EDQUOT: Int32 { 69 }              // Glibc: 122

// MARK: bsd/sys/fcntl.h

public var O_RDONLY: Int32 { 0x0000 }
public var O_WRONLY: Int32 { 0x0001 }
public var O_RDWR: Int32 { 0x0002 }
public var O_NONBLOCK: Int32 { 0x0004 }      // Glibc: 0o4000
public var O_APPEND: Int32 { 0x0008 }
public var O_NOFOLLOW: Int32 { 0x0100 }      // Glibc: 0o400000
public var O_CREAT: Int32 { 0x0200 }         // Glibc: 0o100
public var O_TRUNC: Int32 { 0x0400 }
public var O_EXCL: Int32 { 0x0800 }          // Glibc: 0o200
public var O_DIRECTORY: Int32 { 0x100000 }
public var O_CLOEXEC: Int32 { 0x1000000 }    // Glibc: 0o2000000
public var F_DUPFD: Int32 { 0 }
public var F_GETFD: Int32 { 1 }
public var F_SETFD: Int32 { 2 }
public var F_GETFL: Int32 { 3 }
public var F_SETFL: Int32 { 4 }
public var F_GETLK: Int32 { 7 }              // Glibc: 5
public var F_SETLK: Int32 { 8 }              // Glibc: 6
public var F_SETLKW: Int32 { 9 }             // Glibc: 7
public var F_FULLFSYNC: Int32 { 51 }         // Darwin only
public var FD_CLOEXEC: Int32 { 1 }
public var F_RDLCK: Int32 { 1 }              // Glibc: 0
public var F_UNLCK: Int32 { 2 }
public var F_WRLCK: Int32 { 3 }              // Glibc: 1
public var LOCK_SH: Int32 { 1 }
public var LOCK_EX: Int32 { 2 }
public var LOCK_NB: Int32 { 4 }
public var LOCK_UN: Int32 { 8 }
/// `int flock(int, int)`
@discardableResult public func flock(_ fd: Int32, _ operation: Int32) -> Int32 { fatalError("stub") }

// MARK: bsd/sys/stat.h (sys/_types/_s_ifmt.h). Swift's overlay redeclares the S_ macros as mode_t
// (Platform.swift: `public var S_IFMT: mode_t { mode_t(0o170000) }`), so they are UInt16 here.

public var S_IFMT: mode_t { mode_t(0o170000) }
public var S_IFDIR: mode_t { mode_t(0o040000) }
public var S_IFREG: mode_t { mode_t(0o100000) }
public var S_IFLNK: mode_t { mode_t(0o120000) }
public var S_IRWXU: mode_t { mode_t(0o700) }
public var S_IRUSR: mode_t { mode_t(0o400) }
public var S_IWUSR: mode_t { mode_t(0o200) }
@discardableResult public func stat(_ path: UnsafePointer<CChar>!, _ buffer: UnsafeMutablePointer<stat>!) -> Int32 { fatalError("stub") }
@discardableResult public func lstat(_ path: UnsafePointer<CChar>!, _ buffer: UnsafeMutablePointer<stat>!) -> Int32 { fatalError("stub") }
@discardableResult public func fstat(_ fd: Int32, _ buffer: UnsafeMutablePointer<stat>!) -> Int32 { fatalError("stub") }
@discardableResult public func chmod(_ path: UnsafePointer<CChar>!, _ mode: mode_t) -> Int32 { fatalError("stub") }
@discardableResult public func fchmod(_ fd: Int32, _ mode: mode_t) -> Int32 { fatalError("stub") }
@discardableResult public func mkdir(_ path: UnsafePointer<CChar>!, _ mode: mode_t) -> Int32 { fatalError("stub") }
@discardableResult public func umask(_ mask: mode_t) -> mode_t { fatalError("stub") }

// MARK: Libc unistd.h

public var STDIN_FILENO: Int32 { 0 }
public var STDOUT_FILENO: Int32 { 1 }
public var STDERR_FILENO: Int32 { 2 }
public var F_OK: Int32 { 0 }
public var X_OK: Int32 { 1 }
public var W_OK: Int32 { 2 }
public var R_OK: Int32 { 4 }
public var SEEK_SET: Int32 { 0 }
public var SEEK_CUR: Int32 { 1 }
public var SEEK_END: Int32 { 2 }
@discardableResult public func close(_ fd: Int32) -> Int32 { fatalError("stub") }
@discardableResult public func read(_ fd: Int32, _ buffer: UnsafeMutableRawPointer!, _ count: Int) -> Int { fatalError("stub") }
@discardableResult public func write(_ fd: Int32, _ buffer: UnsafeRawPointer!, _ count: Int) -> Int { fatalError("stub") }
@discardableResult public func unlink(_ path: UnsafePointer<CChar>!) -> Int32 { fatalError("stub") }
@discardableResult public func rmdir(_ path: UnsafePointer<CChar>!) -> Int32 { fatalError("stub") }
@discardableResult public func fsync(_ fd: Int32) -> Int32 { fatalError("stub") }
@discardableResult public func lseek(_ fd: Int32, _ offset: off_t, _ whence: Int32) -> off_t { fatalError("stub") }
@discardableResult public func ftruncate(_ fd: Int32, _ length: off_t) -> Int32 { fatalError("stub") }
@discardableResult public func pipe(_ fds: UnsafeMutablePointer<Int32>!) -> Int32 { fatalError("stub") }
@discardableResult public func dup(_ fd: Int32) -> Int32 { fatalError("stub") }
@discardableResult public func dup2(_ fd: Int32, _ fd2: Int32) -> Int32 { fatalError("stub") }
@discardableResult public func access(_ path: UnsafePointer<CChar>!, _ mode: Int32) -> Int32 { fatalError("stub") }
@discardableResult public func isatty(_ fd: Int32) -> Int32 { fatalError("stub") }
@discardableResult public func getpid() -> pid_t { fatalError("stub") }
@discardableResult public func getppid() -> pid_t { fatalError("stub") }
@discardableResult public func getuid() -> uid_t { fatalError("stub") }
@discardableResult public func geteuid() -> uid_t { fatalError("stub") }
@discardableResult public func getegid() -> gid_t { fatalError("stub") }
/// Libc include/pwd.h: `int getpwuid_r(uid_t, struct passwd *, char *, size_t, struct passwd **);`
@discardableResult public func getpwuid_r(_ uid: uid_t, _ entry: UnsafeMutablePointer<passwd>!, _ buffer: UnsafeMutablePointer<CChar>!, _ size: Int, _ result: UnsafeMutablePointer<UnsafeMutablePointer<passwd>?>!) -> Int32 { fatalError("stub") }
/// Libc include/grp.h: `int getgrgid_r(gid_t, struct group *, char *, size_t, struct group **);`
@discardableResult public func getgrgid_r(_ gid: gid_t, _ entry: UnsafeMutablePointer<group>!, _ buffer: UnsafeMutablePointer<CChar>!, _ size: Int, _ result: UnsafeMutablePointer<UnsafeMutablePointer<group>?>!) -> Int32 { fatalError("stub") }
@discardableResult public func usleep(_ microseconds: useconds_t) -> Int32 { fatalError("stub") }
@available(watchOS, unavailable) @available(tvOS, unavailable)
@discardableResult public func execv(_ path: UnsafePointer<CChar>!, _ argv: UnsafePointer<UnsafeMutablePointer<CChar>?>!) -> Int32 { fatalError("stub") }
@available(watchOS, unavailable) @available(tvOS, unavailable)
@discardableResult public func execve(_ path: UnsafePointer<CChar>!, _ argv: UnsafePointer<UnsafeMutablePointer<CChar>?>!, _ envp: UnsafePointer<UnsafeMutablePointer<CChar>?>!) -> Int32 { fatalError("stub") }
@available(watchOS, unavailable) @available(tvOS, unavailable)
@discardableResult public func execvp(_ file: UnsafePointer<CChar>!, _ argv: UnsafePointer<UnsafeMutablePointer<CChar>?>!) -> Int32 { fatalError("stub") }
public func _exit(_ status: Int32) -> Never { fatalError("stub") }
@discardableResult public func getcwd(_ buffer: UnsafeMutablePointer<CChar>!, _ size: Int) -> UnsafeMutablePointer<CChar>! { fatalError("stub") }

// MARK: Libc crt_externs.h, and the overlay's `environ`
// Darwin's unistd.h declares no `environ`; Swift's overlay (Platform.swift, "Misc.") does, reading
// `*_NSGetEnviron()`. `_NSGetExecutablePath` is in mach-o/dyld.h, the MachO module (MachO.swift).

public var environ: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?> { fatalError("stub") }
@discardableResult public func _NSGetEnviron() -> UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>! { fatalError("stub") }

// MARK: Libc stdlib.h, string.h, stdio.h

@discardableResult public func getenv(_ name: UnsafePointer<CChar>!) -> UnsafeMutablePointer<CChar>! { fatalError("stub") }
@discardableResult public func setenv(_ name: UnsafePointer<CChar>!, _ value: UnsafePointer<CChar>!, _ overwrite: Int32) -> Int32 { fatalError("stub") }
@discardableResult public func unsetenv(_ name: UnsafePointer<CChar>!) -> Int32 { fatalError("stub") }
@discardableResult public func realpath(_ path: UnsafePointer<CChar>!, _ resolved: UnsafeMutablePointer<CChar>!) -> UnsafeMutablePointer<CChar>! { fatalError("stub") }
public func free(_ pointer: UnsafeMutableRawPointer?) { fatalError("stub") }
@discardableResult public func malloc(_ size: Int) -> UnsafeMutableRawPointer! { fatalError("stub") }
public func exit(_ status: Int32) -> Never { fatalError("stub") }
public func abort() -> Never { fatalError("stub") }
@discardableResult public func strdup(_ string: UnsafePointer<CChar>!) -> UnsafeMutablePointer<CChar>! { fatalError("stub") }
@discardableResult public func strerror(_ code: Int32) -> UnsafeMutablePointer<CChar>! { fatalError("stub") }
@discardableResult public func strlen(_ string: UnsafePointer<CChar>!) -> Int { fatalError("stub") }
@discardableResult public func memcmp(_ a: UnsafeRawPointer!, _ b: UnsafeRawPointer!, _ count: Int) -> Int32 { fatalError("stub") }
@discardableResult public func fopen(_ path: UnsafePointer<CChar>!, _ mode: UnsafePointer<CChar>!) -> UnsafeMutablePointer<FILE>! { fatalError("stub") }
@discardableResult public func fdopen(_ fd: Int32, _ mode: UnsafePointer<CChar>!) -> UnsafeMutablePointer<FILE>! { fatalError("stub") }
@discardableResult public func fclose(_ file: UnsafeMutablePointer<FILE>!) -> Int32 { fatalError("stub") }
@discardableResult public func fread(_ buffer: UnsafeMutableRawPointer!, _ size: Int, _ count: Int, _ file: UnsafeMutablePointer<FILE>!) -> Int { fatalError("stub") }
@discardableResult public func fwrite(_ buffer: UnsafeRawPointer!, _ size: Int, _ count: Int, _ file: UnsafeMutablePointer<FILE>!) -> Int { fatalError("stub") }
@discardableResult public func fputs(_ string: UnsafePointer<CChar>!, _ file: UnsafeMutablePointer<FILE>!) -> Int32 { fatalError("stub") }
@discardableResult public func fflush(_ file: UnsafeMutablePointer<FILE>!) -> Int32 { fatalError("stub") }
@discardableResult public func fileno(_ file: UnsafeMutablePointer<FILE>!) -> Int32 { fatalError("stub") }
@discardableResult public func rename(_ old: UnsafePointer<CChar>!, _ new: UnsafePointer<CChar>!) -> Int32 { fatalError("stub") }
@discardableResult public func renameat(_ oldFolder: Int32, _ old: UnsafePointer<CChar>!, _ newFolder: Int32, _ new: UnsafePointer<CChar>!) -> Int32 { fatalError("stub") }

// MARK: Libc time.h, bsd/sys/time.h

public var CLOCK_REALTIME: clockid_t { clockid_t(0) }
public var CLOCK_MONOTONIC: clockid_t { clockid_t(6) }   // Glibc: 1
public var CLOCK_UPTIME_RAW: clockid_t { clockid_t(8) }
@discardableResult public func clock_gettime(_ clock: clockid_t, _ time: UnsafeMutablePointer<timespec>!) -> Int32 { fatalError("stub") }
@discardableResult public func time(_ time: UnsafeMutablePointer<time_t>!) -> time_t { fatalError("stub") }
@discardableResult public func gmtime_r(_ time: UnsafePointer<time_t>!, _ result: UnsafeMutablePointer<tm>!) -> UnsafeMutablePointer<tm>! { fatalError("stub") }
@discardableResult public func nanosleep(_ duration: UnsafePointer<timespec>!, _ remaining: UnsafeMutablePointer<timespec>!) -> Int32 { fatalError("stub") }
@discardableResult public func gettimeofday(_ time: UnsafeMutablePointer<timeval>!, _ zone: UnsafeMutableRawPointer!) -> Int32 { fatalError("stub") }

// MARK: Swift's Darwin overlay (POSIXError.swift)

/// The overlay's `POSIXErrorCode`, with Darwin's numbers (Glibc's overlay has its own, with
/// Linux's); Foundation's `POSIXError` wraps it. The cases the stub's errno constants name. On
/// Apple platforms it is also `@objc`, which a Linux compiler cannot model.
public enum POSIXErrorCode: Int32, Sendable {
    case EPERM = 1
    case ENOENT = 2
    case ESRCH = 3
    case EINTR = 4
    case EIO = 5
    case ENXIO = 6
    case EBADF = 9
    case ECHILD = 10
    case ENOMEM = 12
    case EACCES = 13
    case EEXIST = 17
    case ENOTDIR = 20
    case EISDIR = 21
    case EINVAL = 22
    case ENOSPC = 28
    case EPIPE = 32
    case EAGAIN = 35
    case EINPROGRESS = 36
    case EADDRINUSE = 48
    case ECONNRESET = 54
    case ECONNREFUSED = 61
    case ELOOP = 62
    case EDQUOT = 69
    // The overlay has no EOPNOTSUPP case ("FIXME: EOPNOTSUPP has different values depending on
    // __DARWIN_UNIX03 and KERNEL"); Glibc's does.
    public static var EWOULDBLOCK: POSIXErrorCode { .EAGAIN }
}

// Libc include/dirent.h (no nullability annotations: implicitly unwrapped pointers).
/// `DIR *opendir(const char *);`
public func opendir(_ filename: UnsafePointer<CChar>!) -> UnsafeMutablePointer<DIR>! { fatalError("stub") }
/// `struct dirent *readdir(DIR *);`
public func readdir(_ dirp: UnsafeMutablePointer<DIR>!) -> UnsafeMutablePointer<dirent>! { fatalError("stub") }
/// `int closedir(DIR *);`
@discardableResult public func closedir(_ dirp: UnsafeMutablePointer<DIR>!) -> Int32 { fatalError("stub") }
