// swift-format-ignore-file
// libpq's interface (the package's CLibPQ system library, `#include <libpq-fe.h>`) as Swift imports
// it, for the macOS pass of scripts/check-apple: the real header includes <stdio.h>, which here
// would bring Linux's C library into the pass, so the declarations the package uses are transcribed
// from PostgreSQL's src/interfaces/libpq/libpq-fe.h (15, the header Debian's libpq-dev and
// Homebrew's libpq install). `PGconn` and `PGresult` are incomplete structs, imported as
// `OpaquePointer`; the status enums are imported as structs over UInt32 with global constants; the
// header has no nullability annotations, so its pointers are implicitly unwrapped. Every libpq
// function is available on macOS; the C library's declarations carry no @available. Never
// shipped or run.

/// postgres_ext.h: `typedef unsigned int Oid;`
public typealias Oid = UInt32

/// `typedef enum { CONNECTION_OK, CONNECTION_BAD, ... } ConnStatusType;`
public struct ConnStatusType: Equatable, Hashable, RawRepresentable {
    public var rawValue: UInt32
    public init(_ rawValue: UInt32) { self.rawValue = rawValue }
    public init(rawValue: UInt32) { self.rawValue = rawValue }
}
public var CONNECTION_OK: ConnStatusType { ConnStatusType(0) }
public var CONNECTION_BAD: ConnStatusType { ConnStatusType(1) }

/// `typedef enum { PGRES_EMPTY_QUERY = 0, PGRES_COMMAND_OK, PGRES_TUPLES_OK, ... } ExecStatusType;`
public struct ExecStatusType: Equatable, Hashable, RawRepresentable {
    public var rawValue: UInt32
    public init(_ rawValue: UInt32) { self.rawValue = rawValue }
    public init(rawValue: UInt32) { self.rawValue = rawValue }
}
public var PGRES_EMPTY_QUERY: ExecStatusType { ExecStatusType(0) }
public var PGRES_COMMAND_OK: ExecStatusType { ExecStatusType(1) }
public var PGRES_TUPLES_OK: ExecStatusType { ExecStatusType(2) }
public var PGRES_BAD_RESPONSE: ExecStatusType { ExecStatusType(5) }
public var PGRES_FATAL_ERROR: ExecStatusType { ExecStatusType(7) }

/// `typedef struct _PQconninfoOption { char *keyword, *envvar, *compiled, *val, *label, *dispchar; int dispsize; }`
public struct _PQconninfoOption {
    public var keyword: UnsafeMutablePointer<CChar>!
    public var envvar: UnsafeMutablePointer<CChar>!
    public var compiled: UnsafeMutablePointer<CChar>!
    public var val: UnsafeMutablePointer<CChar>!
    public var label: UnsafeMutablePointer<CChar>!
    public var dispchar: UnsafeMutablePointer<CChar>!
    public var dispsize: Int32
    public init() { fatalError("stub") }
}
public typealias PQconninfoOption = _PQconninfoOption

/// `typedef void (*PQnoticeProcessor) (void *arg, const char *message);`
public typealias PQnoticeProcessor = @convention(c) (UnsafeMutableRawPointer?, UnsafePointer<CChar>?) -> Void

/// `#define PG_DIAG_SQLSTATE 'C'`, which Swift imports as an Int32.
public var PG_DIAG_SQLSTATE: Int32 { 67 }
public var PG_DIAG_MESSAGE_PRIMARY: Int32 { 77 }

@discardableResult public func PQconnectdb(_ conninfo: UnsafePointer<CChar>!) -> OpaquePointer! { fatalError("stub") }
@discardableResult public func PQconnectdbParams(_ keywords: UnsafePointer<UnsafePointer<CChar>?>!, _ values: UnsafePointer<UnsafePointer<CChar>?>!, _ expandDBName: Int32) -> OpaquePointer! { fatalError("stub") }
public func PQfinish(_ conn: OpaquePointer!) { fatalError("stub") }
public func PQreset(_ conn: OpaquePointer!) { fatalError("stub") }
@discardableResult public func PQconninfoParse(_ conninfo: UnsafePointer<CChar>!, _ errmsg: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>!) -> UnsafeMutablePointer<PQconninfoOption>! { fatalError("stub") }
public func PQconninfoFree(_ options: UnsafeMutablePointer<PQconninfoOption>!) { fatalError("stub") }
@discardableResult public func PQstatus(_ conn: OpaquePointer!) -> ConnStatusType { fatalError("stub") }
@discardableResult public func PQerrorMessage(_ conn: OpaquePointer!) -> UnsafeMutablePointer<CChar>! { fatalError("stub") }
@discardableResult public func PQsocket(_ conn: OpaquePointer!) -> Int32 { fatalError("stub") }
@discardableResult public func PQbackendPID(_ conn: OpaquePointer!) -> Int32 { fatalError("stub") }
@discardableResult public func PQconnectionNeedsPassword(_ conn: OpaquePointer!) -> Int32 { fatalError("stub") }
@discardableResult public func PQsslInUse(_ conn: OpaquePointer!) -> Int32 { fatalError("stub") }
@discardableResult public func PQsetNoticeProcessor(_ conn: OpaquePointer!, _ processor: PQnoticeProcessor!, _ argument: UnsafeMutableRawPointer!) -> PQnoticeProcessor! { fatalError("stub") }
@discardableResult public func PQexec(_ conn: OpaquePointer!, _ query: UnsafePointer<CChar>!) -> OpaquePointer! { fatalError("stub") }
@discardableResult public func PQexecParams(_ conn: OpaquePointer!, _ command: UnsafePointer<CChar>!, _ nParams: Int32, _ paramTypes: UnsafePointer<Oid>!, _ paramValues: UnsafePointer<UnsafePointer<CChar>?>!, _ paramLengths: UnsafePointer<Int32>!, _ paramFormats: UnsafePointer<Int32>!, _ resultFormat: Int32) -> OpaquePointer! { fatalError("stub") }
@discardableResult public func PQsendQueryParams(_ conn: OpaquePointer!, _ command: UnsafePointer<CChar>!, _ nParams: Int32, _ paramTypes: UnsafePointer<Oid>!, _ paramValues: UnsafePointer<UnsafePointer<CChar>?>!, _ paramLengths: UnsafePointer<Int32>!, _ paramFormats: UnsafePointer<Int32>!, _ resultFormat: Int32) -> Int32 { fatalError("stub") }
@discardableResult public func PQgetResult(_ conn: OpaquePointer!) -> OpaquePointer! { fatalError("stub") }
@discardableResult public func PQisBusy(_ conn: OpaquePointer!) -> Int32 { fatalError("stub") }
@discardableResult public func PQconsumeInput(_ conn: OpaquePointer!) -> Int32 { fatalError("stub") }
@discardableResult public func PQsetnonblocking(_ conn: OpaquePointer!, _ arg: Int32) -> Int32 { fatalError("stub") }
@discardableResult public func PQflush(_ conn: OpaquePointer!) -> Int32 { fatalError("stub") }
@discardableResult public func PQresultStatus(_ result: OpaquePointer!) -> ExecStatusType { fatalError("stub") }
@discardableResult public func PQresultErrorField(_ result: OpaquePointer!, _ fieldcode: Int32) -> UnsafeMutablePointer<CChar>! { fatalError("stub") }
@discardableResult public func PQresultErrorMessage(_ result: OpaquePointer!) -> UnsafeMutablePointer<CChar>! { fatalError("stub") }
@discardableResult public func PQntuples(_ result: OpaquePointer!) -> Int32 { fatalError("stub") }
@discardableResult public func PQnfields(_ result: OpaquePointer!) -> Int32 { fatalError("stub") }
@discardableResult public func PQgetvalue(_ result: OpaquePointer!, _ row: Int32, _ field: Int32) -> UnsafeMutablePointer<CChar>! { fatalError("stub") }
@discardableResult public func PQgetlength(_ result: OpaquePointer!, _ row: Int32, _ field: Int32) -> Int32 { fatalError("stub") }
@discardableResult public func PQgetisnull(_ result: OpaquePointer!, _ row: Int32, _ field: Int32) -> Int32 { fatalError("stub") }
public func PQclear(_ result: OpaquePointer!) { fatalError("stub") }
public func PQfreemem(_ pointer: UnsafeMutableRawPointer!) { fatalError("stub") }
@discardableResult public func PQgetCancel(_ conn: OpaquePointer!) -> OpaquePointer! { fatalError("stub") }
public func PQfreeCancel(_ cancel: OpaquePointer!) { fatalError("stub") }
@discardableResult public func PQcancel(_ cancel: OpaquePointer!, _ errbuf: UnsafeMutablePointer<CChar>!, _ errbufsize: Int32) -> Int32 { fatalError("stub") }
