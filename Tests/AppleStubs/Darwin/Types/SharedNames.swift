// swift-format-ignore-file
// Darwin's C structs whose tag is also a function's name (`struct stat` and `stat()`, `struct
// flock` and `flock()`, `struct sigaction` and `sigaction()`). C keeps tags and functions apart and
// Swift's importer keeps both; a Swift module cannot declare both, so every C type of the stub
// lives in _DarwinTypes, which Darwin re-exports: `stat()` and `stat(path, &buffer)` resolve as
// they do on a Mac. Sources as in Tests/AppleStubs/Darwin/README.md. Never shipped or run.


/// `struct stat` of xnu bsd/sys/stat.h with 64-bit inodes (`__DARWIN_STRUCT_STAT64`, the layout
/// every 64-bit Apple platform uses). Its times are `struct timespec` fields named `st_atimespec`,
/// `st_mtimespec`, `st_ctimespec`, `st_birthtimespec` (Linux: `st_atim`, `st_mtim`, `st_ctim`).
/// Rust libc (apple/mod.rs) flattens each into `st_mtime` and `st_mtime_nsec`: the same bytes.
public struct stat {
    public var st_dev: dev_t
    public var st_mode: mode_t
    public var st_nlink: nlink_t
    public var st_ino: ino_t
    public var st_uid: uid_t
    public var st_gid: gid_t
    public var st_rdev: dev_t
    public var st_atimespec: timespec
    public var st_mtimespec: timespec
    public var st_ctimespec: timespec
    public var st_birthtimespec: timespec
    public var st_size: off_t
    public var st_blocks: blkcnt_t
    public var st_blksize: blksize_t
    public var st_flags: UInt32
    public var st_gen: UInt32
    public var st_lspare: Int32
    public var st_qspare: (Int64, Int64)
    public init() { fatalError("stub") }
}

/// `struct flock` of xnu bsd/sys/fcntl.h: `l_start`, `l_len`, `l_pid`, `l_type`, `l_whence`, in
/// that order (Linux puts `l_type` and `l_whence` first). Rust libc agrees.
public struct flock {
    public var l_start: off_t
    public var l_len: off_t
    public var l_pid: pid_t
    public var l_type: Int16
    public var l_whence: Int16
    public init() { fatalError("stub") }
    public init(l_start: off_t, l_len: off_t, l_pid: pid_t, l_type: Int16, l_whence: Int16) { fatalError("stub") }
}

/// `union __sigaction_u` of xnu bsd/sys/signal.h: the handler, spelled `__sa_handler` (the C
/// macro `sa_handler` names `__sigaction_u.__sa_handler`, and Swift imports no such macro). Its
/// other member, `__sa_sigaction`, takes a `struct __siginfo *`, which a Swift-written stub cannot
/// put in a `@convention(c)` type; the package does not use it, so it is left out.
public struct __sigaction_u {
    public var __sa_handler: (@convention(c) (Int32) -> Void)!
    public init() { fatalError("stub") }
    public init(__sa_handler: (@convention(c) (Int32) -> Void)!) { fatalError("stub") }
}

/// `struct sigaction` of xnu bsd/sys/signal.h (the user one): `__sigaction_u`, `sa_mask` (a
/// `sigset_t`, 32 bits), `sa_flags`. Linux has `__sigaction_handler.sa_handler` and a 1024-bit
/// mask. Rust libc writes the union as one `sa_sigaction` field of the same size.
public struct sigaction {
    public var __sigaction_u: __sigaction_u
    public var sa_mask: sigset_t
    public var sa_flags: Int32
    public init() { fatalError("stub") }
    public init(__sigaction_u: __sigaction_u, sa_mask: sigset_t, sa_flags: Int32) { fatalError("stub") }
}
