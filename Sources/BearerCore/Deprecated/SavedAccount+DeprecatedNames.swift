// Spellings of 0.1.0 kept for one minor release; each says what replaces it.
extension SavedAccount {
    /// Whether the session needs a new sign-in before it can be used: ``signInRequired``.
    @available(*, deprecated, renamed: "signInRequired")
    public var needsSignIn: Bool { signInRequired }
}
