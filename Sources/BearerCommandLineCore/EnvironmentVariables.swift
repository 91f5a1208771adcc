#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The environment variables a command reads: the process's own, each read by name when asked
/// for, or a fixed set (in tests).
///
/// The process's are read with `getenv` rather than from `ProcessInfo`, whose first use builds
/// Foundation's process information and a dictionary of every variable: a quarter of a millisecond
/// of `bearer token`, which reads three.
package struct EnvironmentVariables: Sendable {
    private let fixed: [String: String]?

    /// The process's environment.
    package static let process = EnvironmentVariables(fixed: nil)

    private init(fixed: [String: String]?) {
        self.fixed = fixed
    }

    /// A fixed set of variables.
    ///
    /// - Parameter values: The variables by name.
    package init(_ values: [String: String]) {
        fixed = values
    }

    /// The variable `name`, or `nil` when it is not set.
    package subscript(name: String) -> String? {
        if let fixed { return fixed[name] }
        return getenv(name).map { String(cString: $0) }
    }
}
