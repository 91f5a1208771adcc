extension String {
    /// This text without control characters (C0, DEL, C1: `Cc`) and invisible format characters
    /// (such as bidirectional overrides: `Cf`), so a server's or a network peer's text cannot move
    /// the cursor, change colours or reorder what a terminal or a label shows.
    @_spi(Internals) public var printable: String {
        String(String.UnicodeScalarView(unicodeScalars.filter { !$0.isControlOrFormat }))
    }

    /// Whether this text has a control or format character.
    var hasControlCharacters: Bool {
        unicodeScalars.contains(where: \.isControlOrFormat)
    }
}

extension String {
    /// This JSON text with every control and format character (C1 controls, bidirectional
    /// overrides, …) written as a `\uXXXX` escape, so printing it cannot drive a terminal. Such
    /// characters can only stand inside JSON strings, where the escape means the same.
    @_spi(CommandLine) public var escapingControlsInJSON: String {
        var result = ""
        for scalar in unicodeScalars {
            guard scalar.isControlOrFormat else {
                result.unicodeScalars.append(scalar)
                continue
            }
            for unit in String(scalar).utf16 {
                let hex = String(unit, radix: 16, uppercase: false)
                result += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            }
        }
        return result
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
