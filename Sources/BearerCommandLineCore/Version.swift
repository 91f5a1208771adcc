/// The release of Bearer the tool was built from. `CHANGELOG.md`'s newest entry names the same
/// version (a test checks that they agree).
package enum Version {
    /// The version, in semantic-versioning form.
    package static let current = "0.2.0"

    /// What `bearer --version` prints.
    package static var line: String { "bearer \(current)" }
}
