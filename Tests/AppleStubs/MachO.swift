// swift-format-ignore-file
// The MachO module of Apple's SDKs, for the one declaration the package uses: dyld's
// `int _NSGetExecutablePath(char* buf, uint32_t* bufsize)` (apple-oss-distributions/dyld
// include/mach-o/dyld.h, unannotated, so its pointers are implicitly unwrapped). Code that calls it
// imports MachO. Never shipped or run.

@discardableResult public func _NSGetExecutablePath(_ buffer: UnsafeMutablePointer<CChar>!, _ bufferSize: UnsafeMutablePointer<UInt32>!) -> Int32 { fatalError("stub") }
