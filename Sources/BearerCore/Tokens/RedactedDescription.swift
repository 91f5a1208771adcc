/// A value that holds secrets and describes itself without them.
///
/// A conforming type writes one `description` that never shows a secret; `debugDescription`,
/// `String(reflecting:)`, `dump` and string interpolation then all print that description, because
/// the mirror has it as its only child. ``Credential`` and every request, response and session
/// type of Bearer conform.
protocol RedactedDescription: CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {}

extension RedactedDescription {
    /// The same as `description`, so debugging output shows no secret.
    public var debugDescription: String { description }

    /// A mirror whose only child is the redacted description, so `dump` shows no secret.
    public var customMirror: Mirror {
        Mirror(self, children: ["description": description], displayStyle: .struct)
    }
}
