#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Reads the `Retry-After` header (RFC 9110 §10.2.3): a number of seconds or an HTTP date.
enum RetryAfter {
    /// The longest delay honoured: a day.
    static let maximumDelay: TimeInterval = 86_400

    private static let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

    /// The delay a `Retry-After` value asks for.
    ///
    /// - Parameters:
    ///   - value: The header value.
    ///   - now: The current time, for an HTTP date.
    /// - Returns: The delay in seconds, between 0 and ``maximumDelay``, or `nil` when the value
    ///   cannot be read.
    static func delay(from value: String, now: Date) -> TimeInterval? {
        let trimmed = value.trimmingWhitespace()
        guard let first = trimmed.utf8.first else { return nil }
        if first >= UInt8(ascii: "0") && first <= UInt8(ascii: "9") {
            guard trimmed.utf8.count <= 12,
                trimmed.utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }),
                let seconds = TimeInterval(trimmed)
            else { return nil }
            return min(seconds, maximumDelay)
        }
        guard let date = httpDate(trimmed) else { return nil }
        return min(max(0, date.timeIntervalSince(now)), maximumDelay)
    }

    /// Parses an IMF-fixdate (`Sun, 06 Nov 1994 08:49:37 GMT`, RFC 9110 §5.6.7).
    static func httpDate(_ text: Substring) -> Date? {
        let parts = text.split(separator: " ")
        guard parts.count == 6, parts[0].hasSuffix(","), parts[5] == "GMT",
            let day = Int(parts[1]), (1...31).contains(day),
            let monthIndex = months.firstIndex(of: String(parts[2])),
            let year = Int(parts[3]), (1970...9999).contains(year)
        else { return nil }
        let time = parts[4].split(separator: ":")
        guard time.count == 3, let hour = Int(time[0]), let minute = Int(time[1]), let second = Int(time[2]),
            (0...23).contains(hour), (0...59).contains(minute), (0...60).contains(second)
        else { return nil }
        let days = daysFromCivil(year: year, month: monthIndex + 1, day: day)
        return Date(timeIntervalSince1970: TimeInterval(days * 86_400 + hour * 3_600 + minute * 60 + second))
    }

    /// Days since 1970-01-01 of a proleptic Gregorian date (H. Hinnant's algorithm).
    private static func daysFromCivil(year: Int, month: Int, day: Int) -> Int {
        let shiftedYear = month <= 2 ? year - 1 : year
        let era = shiftedYear / 400
        let yearOfEra = shiftedYear - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }
}
