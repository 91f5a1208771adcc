#if canImport(FoundationEssentials)
    package import FoundationEssentials
#else
    package import Foundation
#endif

/// The shape that ``BearerError`` and BearerMigration's `MigrationError` share, after
/// swift-certificates' errors: a kind to branch on, and a reason with the place it was raised,
/// which only `description` prints. Errors compare and hash by kind alone.
package protocol KindedError: Error, Sendable, Hashable, CustomStringConvertible, LocalizedError {
    /// The kinds of this error.
    associatedtype Kind: Sendable, Hashable, CustomStringConvertible

    /// The type's name, as `description` prints it.
    static var typeName: String { get }
    /// What kind of failure this is.
    var kind: Kind { get }
    /// What went wrong and what to do, without secrets.
    var reason: String { get }
    /// The file that raised the error.
    var file: String { get }
    /// The line that raised the error.
    var line: UInt { get }
}

extension KindedError {
    /// Errors are equal when their kinds are, whatever their reasons and places.
    public static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.kind == rhs.kind
    }

    /// Hashes the kind.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(kind)
    }

    /// The kind, the reason and the place it was raised: `BearerError.network: … File.swift:42`.
    public var description: String {
        "\(Self.typeName).\(kind): \(reason) \(file):\(line)"
    }

    /// The kind and the reason, so `localizedDescription` says what to do.
    public var errorDescription: String? {
        "\(Self.typeName).\(kind): \(reason)"
    }
}
