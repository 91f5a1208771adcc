extension String {
    /// This text without control characters (C0, DEL, C1: `Cc`) and invisible format characters
    /// (such as bidirectional overrides: `Cf`), so a server's or a network peer's text cannot move
    /// the cursor, change colours or reorder what a terminal or a label shows.
    package var printable: String {
        String(String.UnicodeScalarView(unicodeScalars.filter { !$0.isControlOrFormat }))
    }

    /// Whether this text has a control or format character.
    package var hasControlCharacters: Bool {
        unicodeScalars.contains(where: \.isControlOrFormat)
    }
}

extension Unicode.Scalar {
    fileprivate var isControlOrFormat: Bool {
        switch properties.generalCategory {
        case .control, .format: return true
        default: return false
        }
    }
}
