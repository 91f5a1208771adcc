// swift-format-ignore-file
// Darwin's C types as Swift imports them on an arm64 or x86_64 Apple platform (LP64), each from the
// header named beside it (apple-oss-distributions/xnu bsd/sys and bsd/arm|i386, and
// apple-oss-distributions/Libc and libpthread include/), cross-checked against the Rust libc
// crate's Apple module (src/unix/bsd/apple/mod.rs, bsd/mod.rs, unix/mod.rs). Where Linux's Glibc
// differs, the comment says how, since that is what the Darwin branches must spell differently.
// Never shipped or run.

// sys/_types.h, sys/_types/*.h, arm/_types.h
public typealias mode_t = UInt16          // __uint16_t; Glibc: UInt32
public typealias uid_t = UInt32           // __uint32_t
public typealias gid_t = UInt32           // __uint32_t
public typealias pid_t = Int32            // __int32_t
public typealias off_t = Int64            // __int64_t
public typealias dev_t = Int32            // __int32_t; Glibc: UInt64
public typealias ino_t = UInt64           // __uint64_t with 64-bit inodes
public typealias nlink_t = UInt16         // __uint16_t; Glibc: UInt (x86_64)
public typealias blksize_t = Int32        // __int32_t; Glibc: Int
public typealias blkcnt_t = Int64         // __int64_t
public typealias time_t = Int             // long
public typealias suseconds_t = Int32      // __int32_t; Glibc: Int
public typealias useconds_t = UInt32      // __uint32_t
public typealias sigset_t = UInt32        // __uint32_t; Glibc: a struct of 16 UInt
public typealias socklen_t = UInt32       // __uint32_t
public typealias sa_family_t = UInt8      // __uint8_t; Glibc: UInt16
public typealias in_port_t = UInt16       // __uint16_t
public typealias in_addr_t = UInt32       // __uint32_t
public typealias nfds_t = UInt32          // unsigned int; Glibc: UInt
public typealias ssize_t = Int            // long
public typealias size_t = Int             // imported as Int, as everywhere

/// time.h: `typedef enum { _CLOCK_REALTIME = 0, _CLOCK_MONOTONIC = 6, ... } clockid_t;`, which
/// Swift imports as a struct over UInt32 (Rust libc: `c_uint`; Glibc: a plain Int32).
public struct clockid_t: Equatable, Hashable, RawRepresentable, Sendable {
    public var rawValue: UInt32
    public init(_ rawValue: UInt32) { self.rawValue = rawValue }
    public init(rawValue: UInt32) { self.rawValue = rawValue }
}

/// sys/_types/_timespec.h
public struct timespec {
    public var tv_sec: Int
    public var tv_nsec: Int
    public init() { fatalError("stub") }
    public init(tv_sec: Int, tv_nsec: Int) { fatalError("stub") }
}

/// sys/_types/_timeval.h: `tv_usec` is `__darwin_suseconds_t`, 32 bits (Glibc: Int).
public struct timeval {
    public var tv_sec: Int
    public var tv_usec: Int32
    public init() { fatalError("stub") }
    public init(tv_sec: Int, tv_usec: Int32) { fatalError("stub") }
}

/// time.h
public struct tm {
    public var tm_sec: Int32
    public var tm_min: Int32
    public var tm_hour: Int32
    public var tm_mday: Int32
    public var tm_mon: Int32
    public var tm_year: Int32
    public var tm_wday: Int32
    public var tm_yday: Int32
    public var tm_isdst: Int32
    public var tm_gmtoff: Int
    public var tm_zone: UnsafeMutablePointer<CChar>!
    public init() { fatalError("stub") }
}

/// sys/signal.h: `struct __siginfo` (`siginfo_t`), only named here.
public struct __siginfo {
    public var si_signo: Int32
    public var si_errno: Int32
    public var si_code: Int32
    public var si_pid: pid_t
    public var si_uid: uid_t
    public var si_status: Int32
    public init() { fatalError("stub") }
}
public typealias siginfo_t = __siginfo

/// sys/signal.h: `typedef void (*sig_t)(int);` Glibc calls it `sighandler_t` (and has no `sig_t`).
public typealias sig_t = @convention(c) (Int32) -> Void

// libpthread sys/_pthread/_pthread_types.h: opaque structs with a signature word, imported with a
// zero initialiser; `pthread_t` is a pointer to `struct _opaque_pthread_t` (Glibc: UInt, and Rust
// libc models the same bytes as `uintptr_t`), so a thread variable is `pthread_t?`.
public struct _opaque_pthread_t {
    public var __sig: Int
    public init() { fatalError("stub") }
}
public typealias pthread_t = UnsafeMutablePointer<_opaque_pthread_t>
/// `struct _opaque_pthread_attr_t { long __sig; char __opaque[56]; }`
public struct pthread_attr_t {
    public var __sig: Int
    public var __opaque: (CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar)
    public init() { fatalError("stub") }
}
/// `struct _opaque_pthread_mutex_t { long __sig; char __opaque[56]; }`; `PTHREAD_MUTEX_INITIALIZER`
/// is a macro Swift does not import: initialise with `pthread_mutex_init`.
public struct pthread_mutex_t {
    public var __sig: Int
    public var __opaque: (CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar)
    public init() { fatalError("stub") }
}
/// `struct _opaque_pthread_mutexattr_t { long __sig; char __opaque[8]; }`
public struct pthread_mutexattr_t {
    public var __sig: Int
    public var __opaque: (CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar)
    public init() { fatalError("stub") }
}
/// `struct _opaque_pthread_cond_t { long __sig; char __opaque[40]; }`
public struct pthread_cond_t {
    public var __sig: Int
    public var __opaque: (CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar)
    public init() { fatalError("stub") }
}
/// `struct _opaque_pthread_condattr_t { long __sig; char __opaque[8]; }`
public struct pthread_condattr_t {
    public var __sig: Int
    public var __opaque: (CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar)
    public init() { fatalError("stub") }
}

// Libc include/spawn.h: `typedef void *posix_spawnattr_t;` and `typedef void
// *posix_spawn_file_actions_t;`. Swift imports each as a raw pointer with no initialiser, so a
// variable is `posix_spawnattr_t?` set to nil and passed to `posix_spawnattr_init(&attributes)`.
// Glibc has structs here, which `posix_spawnattr_t()` initialises; that spelling does not compile
// on Darwin. Rust libc agrees (`*mut c_void`).
public typealias posix_spawnattr_t = UnsafeMutableRawPointer
public typealias posix_spawn_file_actions_t = UnsafeMutableRawPointer

/// bsd/sys/socket.h: `sa_len` first, then a one-byte family (Glibc: no length, two-byte family).
public struct sockaddr {
    public var sa_len: UInt8
    public var sa_family: sa_family_t
    public var sa_data: (CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar)
    public init() { fatalError("stub") }
    public init(sa_len: UInt8, sa_family: sa_family_t, sa_data: (CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar)) { fatalError("stub") }
}

/// bsd/netinet/in.h
public struct in_addr {
    public var s_addr: in_addr_t
    public init() { fatalError("stub") }
    public init(s_addr: in_addr_t) { fatalError("stub") }
}

/// bsd/netinet/in.h: `sin_len` first (Glibc has none), a one-byte family.
public struct sockaddr_in {
    public var sin_len: UInt8
    public var sin_family: sa_family_t
    public var sin_port: in_port_t
    public var sin_addr: in_addr
    public var sin_zero: (CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar)
    public init() { fatalError("stub") }
    public init(sin_len: UInt8, sin_family: sa_family_t, sin_port: in_port_t, sin_addr: in_addr, sin_zero: (CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar)) { fatalError("stub") }
}

/// bsd/sys/poll.h: `events` and `revents` are `short`.
public struct pollfd {
    public var fd: Int32
    public var events: Int16
    public var revents: Int16
    public init() { fatalError("stub") }
    public init(fd: Int32, events: Int16, revents: Int16) { fatalError("stub") }
}

/// Libc include/stdio.h: `typedef struct __sFILE { ... } FILE;`, opaque here (Glibc: `_IO_FILE`).
public struct __sFILE {
    public init() { fatalError("stub") }
}
public typealias FILE = __sFILE

// xnu bsd/sys/resource.h: `typedef __uint64_t rlim_t;` and `struct rlimit` (Rust libc agrees).
public typealias rlim_t = UInt64
public struct rlimit {
    public var rlim_cur: rlim_t
    public var rlim_max: rlim_t
    public init() { fatalError("stub") }
    public init(rlim_cur: rlim_t, rlim_max: rlim_t) { fatalError("stub") }
}

/// Libc include/pwd.h: `struct passwd`, with `pw_change`, `pw_class` and `pw_expire` (Glibc has
/// none of them); no nullability annotations, so its pointers are implicitly unwrapped.
public struct passwd {
    public var pw_name: UnsafeMutablePointer<CChar>!
    public var pw_passwd: UnsafeMutablePointer<CChar>!
    public var pw_uid: uid_t
    public var pw_gid: gid_t
    public var pw_change: time_t
    public var pw_class: UnsafeMutablePointer<CChar>!
    public var pw_gecos: UnsafeMutablePointer<CChar>!
    public var pw_dir: UnsafeMutablePointer<CChar>!
    public var pw_shell: UnsafeMutablePointer<CChar>!
    public var pw_expire: time_t
    public init() { fatalError("stub") }
}

/// Libc include/grp.h: `struct group`; `gr_mem` is a null-terminated `char **`.
public struct group {
    public var gr_name: UnsafeMutablePointer<CChar>!
    public var gr_passwd: UnsafeMutablePointer<CChar>!
    public var gr_gid: gid_t
    public var gr_mem: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>!
    public init() { fatalError("stub") }
}

/// `struct dirent` of xnu bsd/sys/dirent.h with 64-bit inodes (`__DARWIN_STRUCT_DIRENTRY`, the
/// layout every 64-bit Apple platform uses): `d_ino`, `d_seekoff`, `d_reclen`, `d_namlen`,
/// `d_type`, and `d_name[__DARWIN_MAXPATHLEN]` (1024; Linux: `d_off` and `d_name[256]`).
public struct dirent {
    public var d_ino: UInt64
    public var d_seekoff: UInt64
    public var d_reclen: UInt16
    public var d_namlen: UInt16
    public var d_type: UInt8
    public var d_name: (CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar)
    public init() { fatalError("stub") }
}
/// `DIR` of Libc include/dirent.h: a typedef of an anonymous struct (Linux: the incomplete
/// `struct __dirstream`, imported as `OpaquePointer`), so `opendir` returns a typed pointer here.
public struct DIR {
    public var __dd_fd: Int32
    public var __dd_loc: Int
    public var __dd_size: Int
    public var __dd_buf: UnsafeMutablePointer<CChar>!
    public var __dd_len: Int32
    public var __dd_seek: Int
    public var __padding: Int
    public var __dd_flags: Int32
    public var __dd_lock: pthread_mutex_t
    public var __dd_td: OpaquePointer!
    public init() { fatalError("stub") }
}
