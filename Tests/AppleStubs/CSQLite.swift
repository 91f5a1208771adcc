// swift-format-ignore-file
// SQLite's interface (the package's CSQLite system library, `#include <sqlite3.h>`) as Swift
// imports it, for the macOS pass of scripts/check-apple: the real header includes <stdarg.h>,
// which here would bring Linux's C library into the pass, so the declarations the tool uses are
// transcribed from SQLite's sqlite3.h (3.40, the header Debian's libsqlite3-dev installs; macOS's
// SDK ships the same interface). `sqlite3` and `sqlite3_stmt` are incomplete structs, imported as
// `OpaquePointer`; the result codes and open flags are macros, imported as `Int32` constants; the
// header has no nullability annotations, so its pointers are implicitly unwrapped. Every function
// here is available on macOS; the C library's declarations carry no @available. Never shipped or run.

/// `#define SQLITE_OK 0`
public var SQLITE_OK: Int32 { 0 }
/// `#define SQLITE_ROW 100`
public var SQLITE_ROW: Int32 { 100 }
/// `#define SQLITE_DONE 101`
public var SQLITE_DONE: Int32 { 101 }
/// `#define SQLITE_OPEN_READONLY 0x00000001`
public var SQLITE_OPEN_READONLY: Int32 { 0x0000_0001 }

/// `int sqlite3_open_v2(const char *filename, sqlite3 **ppDb, int flags, const char *zVfs);`
public func sqlite3_open_v2(
    _ filename: UnsafePointer<CChar>!, _ ppDb: UnsafeMutablePointer<OpaquePointer?>!, _ flags: Int32,
    _ zVfs: UnsafePointer<CChar>!
) -> Int32 { fatalError("stub") }
/// `int sqlite3_close(sqlite3*);`
@discardableResult public func sqlite3_close(_ db: OpaquePointer!) -> Int32 { fatalError("stub") }
/// `int sqlite3_busy_timeout(sqlite3*, int ms);`
@discardableResult public func sqlite3_busy_timeout(_ db: OpaquePointer!, _ ms: Int32) -> Int32 { fatalError("stub") }
/// `int sqlite3_prepare_v2(sqlite3 *db, const char *zSql, int nByte, sqlite3_stmt **ppStmt, const char **pzTail);`
public func sqlite3_prepare_v2(
    _ db: OpaquePointer!, _ zSql: UnsafePointer<CChar>!, _ nByte: Int32,
    _ ppStmt: UnsafeMutablePointer<OpaquePointer?>!, _ pzTail: UnsafeMutablePointer<UnsafePointer<CChar>?>!
) -> Int32 { fatalError("stub") }
/// `int sqlite3_step(sqlite3_stmt*);`
public func sqlite3_step(_ pStmt: OpaquePointer!) -> Int32 { fatalError("stub") }
/// `const unsigned char *sqlite3_column_text(sqlite3_stmt*, int iCol);`
public func sqlite3_column_text(_ pStmt: OpaquePointer!, _ iCol: Int32) -> UnsafePointer<UInt8>! { fatalError("stub") }
/// `const void *sqlite3_column_blob(sqlite3_stmt*, int iCol);`
public func sqlite3_column_blob(_ pStmt: OpaquePointer!, _ iCol: Int32) -> UnsafeRawPointer! { fatalError("stub") }
/// `int sqlite3_column_bytes(sqlite3_stmt*, int iCol);`
public func sqlite3_column_bytes(_ pStmt: OpaquePointer!, _ iCol: Int32) -> Int32 { fatalError("stub") }
/// `int sqlite3_finalize(sqlite3_stmt *pStmt);`
@discardableResult public func sqlite3_finalize(_ pStmt: OpaquePointer!) -> Int32 { fatalError("stub") }
/// `const char *sqlite3_errmsg(sqlite3*);`
public func sqlite3_errmsg(_ db: OpaquePointer!) -> UnsafePointer<CChar>! { fatalError("stub") }
