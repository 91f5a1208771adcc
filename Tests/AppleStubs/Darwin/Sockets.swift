// swift-format-ignore-file
// Sockets and polling of the Darwin stub: xnu bsd/sys/socket.h, bsd/netinet/in.h, bsd/sys/poll.h,
// Libc include/arpa/inet.h. Sources as in README.md. Never shipped or run.

public var AF_UNIX: Int32 { 1 }
public var AF_INET: Int32 { 2 }
public var AF_INET6: Int32 { 30 }            // Glibc: 10
public var PF_INET: Int32 { AF_INET }
/// `SOCK_STREAM` is an int macro (Glibc: a `__socket_type` enum, so Linux code writes
/// `Int32(SOCK_STREAM.rawValue)`, which does not compile here).
public var SOCK_STREAM: Int32 { 1 }
public var SOCK_DGRAM: Int32 { 2 }
public var SOL_SOCKET: Int32 { 0xffff }      // Glibc: 1
public var SO_REUSEADDR: Int32 { 0x0004 }    // Glibc: 2
public var SO_KEEPALIVE: Int32 { 0x0008 }
public var SO_NOSIGPIPE: Int32 { 0x1022 }    // Darwin only; Glibc has MSG_NOSIGNAL instead
public var SO_RCVTIMEO: Int32 { 0x1006 }
public var SO_SNDTIMEO: Int32 { 0x1005 }
public var IPPROTO_TCP: Int32 { 6 }
public var TCP_NODELAY: Int32 { 0x01 }
public var INADDR_ANY: in_addr_t { 0 }
public var INADDR_LOOPBACK: in_addr_t { 0x7f00_0001 }
public var SHUT_RD: Int32 { 0 }
public var SHUT_WR: Int32 { 1 }
public var SHUT_RDWR: Int32 { 2 }
public var MSG_PEEK: Int32 { 0x2 }
/// bsd/sys/socket.h:637, since xnu-7195.50.7 (macOS 11, iOS 14): older Darwin had only SO_NOSIGPIPE.
public var MSG_NOSIGNAL: Int32 { 0x80000 }   // Glibc: 0x4000
public var MSG_DONTWAIT: Int32 { 0x80 }

@discardableResult public func socket(_ domain: Int32, _ type: Int32, _ proto: Int32) -> Int32 { fatalError("stub") }
@discardableResult public func bind(_ socket: Int32, _ address: UnsafePointer<sockaddr>!, _ length: socklen_t) -> Int32 { fatalError("stub") }
@discardableResult public func listen(_ socket: Int32, _ backlog: Int32) -> Int32 { fatalError("stub") }
@discardableResult public func accept(_ socket: Int32, _ address: UnsafeMutablePointer<sockaddr>!, _ length: UnsafeMutablePointer<socklen_t>!) -> Int32 { fatalError("stub") }
@discardableResult public func connect(_ socket: Int32, _ address: UnsafePointer<sockaddr>!, _ length: socklen_t) -> Int32 { fatalError("stub") }
@discardableResult public func getsockname(_ socket: Int32, _ address: UnsafeMutablePointer<sockaddr>!, _ length: UnsafeMutablePointer<socklen_t>!) -> Int32 { fatalError("stub") }
@discardableResult public func setsockopt(_ socket: Int32, _ level: Int32, _ name: Int32, _ value: UnsafeRawPointer!, _ length: socklen_t) -> Int32 { fatalError("stub") }
@discardableResult public func getsockopt(_ socket: Int32, _ level: Int32, _ name: Int32, _ value: UnsafeMutableRawPointer!, _ length: UnsafeMutablePointer<socklen_t>!) -> Int32 { fatalError("stub") }
@discardableResult public func recv(_ socket: Int32, _ buffer: UnsafeMutableRawPointer!, _ length: Int, _ flags: Int32) -> Int { fatalError("stub") }
@discardableResult public func send(_ socket: Int32, _ buffer: UnsafeRawPointer!, _ length: Int, _ flags: Int32) -> Int { fatalError("stub") }
@discardableResult public func shutdown(_ socket: Int32, _ how: Int32) -> Int32 { fatalError("stub") }

// htons, htonl, ntohs and ntohl are function-like macros in bsd/sys/_endian.h (their prototypes are
// only under `#if defined(lint)`), so Swift has none on Darwin: code writes `.bigEndian`.

// bsd/sys/poll.h: the event bits are `short` macros imported as Int32 (as on Glibc).
public var POLLIN: Int32 { 0x0001 }
public var POLLPRI: Int32 { 0x0002 }
public var POLLOUT: Int32 { 0x0004 }
public var POLLERR: Int32 { 0x0008 }
public var POLLHUP: Int32 { 0x0010 }
public var POLLNVAL: Int32 { 0x0020 }
@discardableResult public func poll(_ fds: UnsafeMutablePointer<pollfd>!, _ count: nfds_t, _ timeout: Int32) -> Int32 { fatalError("stub") }
