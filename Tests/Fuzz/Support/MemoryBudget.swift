// Shared by the libFuzzer targets (scripts/fuzz compiles it with each): fails an input that makes
// the code under test hold more than 64 times the input's size in memory at once, so that a small
// input built to expand (shared references, overlapping objects) is a crash, not a slow success.
// libFuzzer's own -malloc_limit_mb only sees single allocations, and -rss_limit_mb the whole process.

/// `__sanitizer_install_malloc_and_free_hooks` from the sanitizer runtime that `-sanitize=address` links.
@_silgen_name("__sanitizer_install_malloc_and_free_hooks")
private func installAllocationHooks(
    _ onAllocate: @convention(c) (UnsafeRawPointer?, Int) -> Void,
    _ onFree: @convention(c) (UnsafeRawPointer?) -> Void
) -> Int32

/// `__sanitizer_get_allocated_size`: the size of a live allocation.
@_silgen_name("__sanitizer_get_allocated_size")
private func allocatedSize(_ pointer: UnsafeRawPointer?) -> Int

/// Bytes allocated and not yet freed since the current input started, and their highest value.
/// The parsers under test run on one thread, so plain counters suffice.
nonisolated(unsafe) private var liveBytes = 0
nonisolated(unsafe) private var peakBytes = 0
nonisolated(unsafe) private var hooksInstalled = false

private func onAllocate(_ pointer: UnsafeRawPointer?, _ size: Int) {
    liveBytes += size
    if liveBytes > peakBytes { peakBytes = liveBytes }
}

private func onFree(_ pointer: UnsafeRawPointer?) {
    liveBytes -= allocatedSize(pointer)
}

/// The most memory one input may hold at once.
enum MemoryBudget {
    /// Bytes per byte of input.
    static let factor = 64
    /// Bytes on top, for caches the runtime and Foundation fill once.
    static let allowance = 4 << 20

    /// Runs `body` for an input of `inputSize` bytes and crashes when it held more than the budget.
    static func check(inputSize: Int, _ body: () -> Void) {
        if !hooksInstalled {
            hooksInstalled = true
            _ = installAllocationHooks(onAllocate, onFree)
        }
        liveBytes = 0
        peakBytes = 0
        body()
        let limit = factor * inputSize + allowance
        if peakBytes > limit {
            fatalError("an input of \(inputSize) bytes held \(peakBytes) bytes at once, over \(limit)")
        }
    }
}
