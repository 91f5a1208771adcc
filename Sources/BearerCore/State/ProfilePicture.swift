#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The size directives of Google's profile picture addresses (FIFE URLs), so a picture can be
/// asked for at the size an app shows it.
///
/// A newer address carries its directives after the first `=` of its last path segment, separated
/// by `-` (`/a/AbC=s96-c`); an older one carries them as a path segment before the file name
/// (`/-x/AAA/BBB/CCC/s96-c/photo.jpg`). `sNN` is the size, `c` a square crop.
enum ProfilePicture {
    /// `url` asking for a `size`-pixel square crop, or `url` unchanged when it is not Google's.
    static func sized(_ url: URL, size: Int) -> URL {
        guard let host = url.host?.lowercased(),
            host == "googleusercontent.com" || host.hasSuffix(".googleusercontent.com"),
            var components = URLComponents(url: url, resolvingAgainstBaseURL: false)
        else { return url }
        var segments = components.percentEncodedPath.split(separator: "/", omittingEmptySubsequences: true).map(
            String.init)
        guard let last = segments.last else { return url }
        if segments.count <= 2 {
            if let separator = last.firstIndex(of: "=") {
                let kept = last[last.index(after: separator)...].split(separator: "-").filter {
                    !$0.isEmpty && $0 != "c" && !isSizeDirective($0)
                }
                segments[segments.count - 1] =
                    String(last[..<separator]) + "="
                    + (kept.map(String.init) + ["c", "s\(size)"]).joined(separator: "-")
            } else {
                segments[segments.count - 1] = last + "=c-s\(size)"
            }
        } else {
            if isSizeDirective(segments[segments.count - 2]) { segments.remove(at: segments.count - 2) }
            segments.insert("s\(size)-c", at: segments.count - 1)
        }
        components.percentEncodedPath = "/" + segments.joined(separator: "/")
        return components.url ?? url
    }

    /// Whether `text` is a size directive: `s` and up to five digits, optionally with `-c`.
    private static func isSizeDirective(_ text: some StringProtocol) -> Bool {
        var body = Substring(text)
        if body.hasSuffix("-c") { body = body.dropLast(2) }
        guard body.first == "s" else { return false }
        let digits = body.dropFirst()
        return (1...5).contains(digits.count) && digits.allSatisfy { ("0"..."9").contains($0) }
    }
}
