// swift-format-ignore-file
// Not a model of anything on Apple platforms, which have no Glibc: the toolchain's own Foundation,
// FoundationEssentials and Dispatch, which scripts/check-apple compiles against, record a module
// named Glibc as a dependency. In the Apple passes this module stands in its place and re-exports
// the Darwin stub, so `import Foundation` gives Darwin's C library, as Apple's Foundation does, and
// nothing of Glibc's. The code compiled there sees `canImport(Glibc)` false (check-apple rewrites
// it), so it never imports this module by name. Linux's C library (the clang module SwiftGlibc)
// is imported internally only because the inlinable code of FoundationEssentials, which the
// compiler inlines when it emits a module, calls it (`memcmp` in `Data.==`); nothing of it is
// visible to code that imports Foundation. Never shipped or run.
@_exported public import Darwin
internal import SwiftGlibc
