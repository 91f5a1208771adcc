// swift-format-ignore-file
// Processes, signals and threads of the Darwin stub: Libc include/spawn.h, xnu bsd/sys/signal.h and
// bsd/sys/wait.h, libpthread include/pthread/pthread.h (which has nullability annotations, so its
// pointers are plain optionals or non-optional). Sources as in README.md. Never shipped or run.

// MARK: spawn.h (xnu libsyscall/wrappers/spawn/spawn.h)
// `posix_spawnp` is `__API_AVAILABLE(macos(10.5), ios(2.0))` only, so it exists on watchOS and tvOS
// too; `posix_spawn` and every posix_spawnattr and file-actions call is also
// `__API_UNAVAILABLE(watchos, tvos)` in the SDKs' header.

public var POSIX_SPAWN_RESETIDS: Int32 { 0x0001 }
public var POSIX_SPAWN_SETPGROUP: Int32 { 0x0002 }
public var POSIX_SPAWN_SETSIGDEF: Int32 { 0x0004 }
public var POSIX_SPAWN_SETSIGMASK: Int32 { 0x0008 }
public var POSIX_SPAWN_CLOEXEC_DEFAULT: Int32 { 0x4000 }   // Darwin only

@available(macOS 10.5, iOS 2.0, *) @available(watchOS, unavailable) @available(tvOS, unavailable)
@discardableResult public func posix_spawn(_ pid: UnsafeMutablePointer<pid_t>!, _ path: UnsafePointer<CChar>!, _ fileActions: UnsafePointer<posix_spawn_file_actions_t?>!, _ attributes: UnsafePointer<posix_spawnattr_t?>!, _ argv: UnsafePointer<UnsafeMutablePointer<CChar>?>!, _ envp: UnsafePointer<UnsafeMutablePointer<CChar>?>!) -> Int32 { fatalError("stub") }
@available(macOS 10.5, iOS 2.0, *)
@discardableResult public func posix_spawnp(_ pid: UnsafeMutablePointer<pid_t>!, _ file: UnsafePointer<CChar>!, _ fileActions: UnsafePointer<posix_spawn_file_actions_t?>!, _ attributes: UnsafePointer<posix_spawnattr_t?>!, _ argv: UnsafePointer<UnsafeMutablePointer<CChar>?>!, _ envp: UnsafePointer<UnsafeMutablePointer<CChar>?>!) -> Int32 { fatalError("stub") }
@available(macOS 10.5, iOS 2.0, *) @available(watchOS, unavailable) @available(tvOS, unavailable)
@discardableResult public func posix_spawnattr_init(_ attributes: UnsafeMutablePointer<posix_spawnattr_t?>!) -> Int32 { fatalError("stub") }
@available(macOS 10.5, iOS 2.0, *) @available(watchOS, unavailable) @available(tvOS, unavailable)
@discardableResult public func posix_spawnattr_destroy(_ attributes: UnsafeMutablePointer<posix_spawnattr_t?>!) -> Int32 { fatalError("stub") }
@available(macOS 10.5, iOS 2.0, *) @available(watchOS, unavailable) @available(tvOS, unavailable)
@discardableResult public func posix_spawnattr_setflags(_ attributes: UnsafeMutablePointer<posix_spawnattr_t?>!, _ flags: Int16) -> Int32 { fatalError("stub") }
@available(macOS 10.5, iOS 2.0, *) @available(watchOS, unavailable) @available(tvOS, unavailable)
@discardableResult public func posix_spawnattr_setsigdefault(_ attributes: UnsafeMutablePointer<posix_spawnattr_t?>!, _ signals: UnsafePointer<sigset_t>!) -> Int32 { fatalError("stub") }
@available(macOS 10.5, iOS 2.0, *) @available(watchOS, unavailable) @available(tvOS, unavailable)
@discardableResult public func posix_spawnattr_setsigmask(_ attributes: UnsafeMutablePointer<posix_spawnattr_t?>!, _ signals: UnsafePointer<sigset_t>!) -> Int32 { fatalError("stub") }
@available(macOS 10.5, iOS 2.0, *) @available(watchOS, unavailable) @available(tvOS, unavailable)
@discardableResult public func posix_spawn_file_actions_init(_ actions: UnsafeMutablePointer<posix_spawn_file_actions_t?>!) -> Int32 { fatalError("stub") }
@available(macOS 10.5, iOS 2.0, *) @available(watchOS, unavailable) @available(tvOS, unavailable)
@discardableResult public func posix_spawn_file_actions_destroy(_ actions: UnsafeMutablePointer<posix_spawn_file_actions_t?>!) -> Int32 { fatalError("stub") }
@available(macOS 10.5, iOS 2.0, *) @available(watchOS, unavailable) @available(tvOS, unavailable)
@discardableResult public func posix_spawn_file_actions_addopen(_ actions: UnsafeMutablePointer<posix_spawn_file_actions_t?>!, _ fd: Int32, _ path: UnsafePointer<CChar>!, _ oflag: Int32, _ mode: mode_t) -> Int32 { fatalError("stub") }
@available(macOS 10.5, iOS 2.0, *) @available(watchOS, unavailable) @available(tvOS, unavailable)
@discardableResult public func posix_spawn_file_actions_adddup2(_ actions: UnsafeMutablePointer<posix_spawn_file_actions_t?>!, _ fd: Int32, _ newFD: Int32) -> Int32 { fatalError("stub") }
@available(macOS 10.5, iOS 2.0, *) @available(watchOS, unavailable) @available(tvOS, unavailable)
@discardableResult public func posix_spawn_file_actions_addclose(_ actions: UnsafeMutablePointer<posix_spawn_file_actions_t?>!, _ fd: Int32) -> Int32 { fatalError("stub") }

// MARK: bsd/sys/wait.h (WIFEXITED and its siblings are function-like macros: Swift has none)

public var WNOHANG: Int32 { 0x00000001 }
@discardableResult public func waitpid(_ pid: pid_t, _ status: UnsafeMutablePointer<Int32>!, _ options: Int32) -> pid_t { fatalError("stub") }

// MARK: bsd/sys/signal.h

public var SIGHUP: Int32 { 1 }
public var SIGINT: Int32 { 2 }
public var SIGQUIT: Int32 { 3 }
public var SIGABRT: Int32 { 6 }
public var SIGKILL: Int32 { 9 }
public var SIGUSR1: Int32 { 30 }             // Glibc: 10
public var SIGUSR2: Int32 { 31 }             // Glibc: 12
public var SIGPIPE: Int32 { 13 }
public var SIGALRM: Int32 { 14 }
public var SIGTERM: Int32 { 15 }
public var SIGCHLD: Int32 { 20 }             // Glibc: 17
public var SIGWINCH: Int32 { 28 }
public var SIG_BLOCK: Int32 { 1 }            // Glibc: 0
public var SIG_UNBLOCK: Int32 { 2 }          // Glibc: 1
public var SIG_SETMASK: Int32 { 3 }          // Glibc: 2
public var SA_ONSTACK: Int32 { 0x0001 }
public var SA_RESTART: Int32 { 0x0002 }      // Glibc: 0x10000000
public var SA_SIGINFO: Int32 { 0x0040 }
/// `void (*signal(int, void (*)(int)))(int);`
@discardableResult public func signal(_ signal: Int32, _ handler: (@convention(c) (Int32) -> Void)!) -> (@convention(c) (Int32) -> Void)! { fatalError("stub") }
@discardableResult public func sigaction(_ signal: Int32, _ action: UnsafePointer<sigaction>!, _ old: UnsafeMutablePointer<sigaction>!) -> Int32 { fatalError("stub") }
@discardableResult public func sigemptyset(_ set: UnsafeMutablePointer<sigset_t>!) -> Int32 { fatalError("stub") }
@discardableResult public func sigfillset(_ set: UnsafeMutablePointer<sigset_t>!) -> Int32 { fatalError("stub") }
@discardableResult public func sigaddset(_ set: UnsafeMutablePointer<sigset_t>!, _ signal: Int32) -> Int32 { fatalError("stub") }
@discardableResult public func sigdelset(_ set: UnsafeMutablePointer<sigset_t>!, _ signal: Int32) -> Int32 { fatalError("stub") }
@discardableResult public func sigismember(_ set: UnsafePointer<sigset_t>!, _ signal: Int32) -> Int32 { fatalError("stub") }
@discardableResult public func sigprocmask(_ how: Int32, _ set: UnsafePointer<sigset_t>!, _ old: UnsafeMutablePointer<sigset_t>!) -> Int32 { fatalError("stub") }
@discardableResult public func kill(_ pid: pid_t, _ signal: Int32) -> Int32 { fatalError("stub") }
@discardableResult public func raise(_ signal: Int32) -> Int32 { fatalError("stub") }
@discardableResult public func pause() -> Int32 { fatalError("stub") }

// MARK: libpthread pthread.h, pthread/pthread.h and signal.h's pthread_sigmask
// pthread.h marks the calls that block a thread `__swift_attr__("@_unavailableFromAsync")`:
// mutex lock, trylock and unlock, the condition waits, join.

@discardableResult public func pthread_create(_ thread: UnsafeMutablePointer<pthread_t?>, _ attributes: UnsafePointer<pthread_attr_t>?, _ start: @convention(c) (UnsafeMutableRawPointer?) -> UnsafeMutableRawPointer?, _ argument: UnsafeMutableRawPointer?) -> Int32 { fatalError("stub") }
@discardableResult public func pthread_detach(_ thread: pthread_t) -> Int32 { fatalError("stub") }
@_unavailableFromAsync
@discardableResult public func pthread_join(_ thread: pthread_t, _ value: UnsafeMutablePointer<UnsafeMutableRawPointer?>?) -> Int32 { fatalError("stub") }
@discardableResult public func pthread_self() -> pthread_t { fatalError("stub") }
@discardableResult public func pthread_kill(_ thread: pthread_t, _ signal: Int32) -> Int32 { fatalError("stub") }
@discardableResult public func pthread_sigmask(_ how: Int32, _ set: UnsafePointer<sigset_t>?, _ old: UnsafeMutablePointer<sigset_t>?) -> Int32 { fatalError("stub") }
@discardableResult public func pthread_attr_init(_ attributes: UnsafeMutablePointer<pthread_attr_t>) -> Int32 { fatalError("stub") }
@discardableResult public func pthread_attr_destroy(_ attributes: UnsafeMutablePointer<pthread_attr_t>) -> Int32 { fatalError("stub") }
@discardableResult public func pthread_attr_setstacksize(_ attributes: UnsafeMutablePointer<pthread_attr_t>, _ size: Int) -> Int32 { fatalError("stub") }
@discardableResult public func pthread_mutex_init(_ mutex: UnsafeMutablePointer<pthread_mutex_t>, _ attributes: UnsafePointer<pthread_mutexattr_t>?) -> Int32 { fatalError("stub") }
@discardableResult public func pthread_mutex_destroy(_ mutex: UnsafeMutablePointer<pthread_mutex_t>) -> Int32 { fatalError("stub") }
@_unavailableFromAsync
@discardableResult public func pthread_mutex_lock(_ mutex: UnsafeMutablePointer<pthread_mutex_t>) -> Int32 { fatalError("stub") }
@_unavailableFromAsync
@discardableResult public func pthread_mutex_trylock(_ mutex: UnsafeMutablePointer<pthread_mutex_t>) -> Int32 { fatalError("stub") }
@_unavailableFromAsync
@discardableResult public func pthread_mutex_unlock(_ mutex: UnsafeMutablePointer<pthread_mutex_t>) -> Int32 { fatalError("stub") }
@discardableResult public func pthread_cond_init(_ condition: UnsafeMutablePointer<pthread_cond_t>, _ attributes: UnsafePointer<pthread_condattr_t>?) -> Int32 { fatalError("stub") }
@discardableResult public func pthread_cond_destroy(_ condition: UnsafeMutablePointer<pthread_cond_t>) -> Int32 { fatalError("stub") }
@_unavailableFromAsync
@discardableResult public func pthread_cond_wait(_ condition: UnsafeMutablePointer<pthread_cond_t>, _ mutex: UnsafeMutablePointer<pthread_mutex_t>) -> Int32 { fatalError("stub") }
@_unavailableFromAsync
@discardableResult public func pthread_cond_timedwait(_ condition: UnsafeMutablePointer<pthread_cond_t>, _ mutex: UnsafeMutablePointer<pthread_mutex_t>, _ deadline: UnsafePointer<timespec>?) -> Int32 { fatalError("stub") }
@discardableResult public func pthread_cond_signal(_ condition: UnsafeMutablePointer<pthread_cond_t>) -> Int32 { fatalError("stub") }
@discardableResult public func pthread_cond_broadcast(_ condition: UnsafeMutablePointer<pthread_cond_t>) -> Int32 { fatalError("stub") }

// MARK: bsd/sys/resource.h (RLIMIT_ constants are int macros; Glibc imports them as an enum)

public var RLIMIT_CORE: Int32 { 4 }
public var RLIMIT_NOFILE: Int32 { 8 }
@discardableResult public func getrlimit(_ resource: Int32, _ limit: UnsafeMutablePointer<rlimit>!) -> Int32 { fatalError("stub") }
@discardableResult public func setrlimit(_ resource: Int32, _ limit: UnsafePointer<rlimit>!) -> Int32 { fatalError("stub") }
