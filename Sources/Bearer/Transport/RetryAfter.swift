public import Foundation

/// Reads the `Retry-After` header (RFC 9110 §10.2.3): a number of seconds or an HTTP date.
public enum RetryAfter {
    /// The delay a `Retry-After` value asks for.
    ///
    /// - Parameters:
    ///   - value: The header value.
    ///   - now: The current time, for an HTTP date.
    /// - Returns: The delay in seconds (never negative), or `nil` when the value cannot be read.
    public static func delay(from value: String, now: Date) -> TimeInterval? {
        let trimmed = String(value.trimmingWhitespace())
        if !trimmed.isEmpty, trimmed.utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }) {
            return TimeInterval(trimmed).map { min($0, 86_400) }
        }
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
        guard let date = formatter.date(from: trimmed) else { return nil }
        return min(max(0, date.timeIntervalSince(now)), 86_400)
    }
}
