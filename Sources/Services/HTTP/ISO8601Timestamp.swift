import Foundation

/// Dates as the API's JSON writes them: ISO 8601 in UTC, with the fractional seconds a `Date`
/// holds (`2026-11-25T16:00:00.5Z`), so that a value encoded and decoded again is equal to itself;
/// whole seconds are written without a fraction, as before. Reading takes any number of
/// fractional digits, or none, and `Z` or an offset (`+01:00`, `+0100`).
///
/// Written by hand rather than with `ISO8601DateFormatter`: that one keeps milliseconds only, and
/// as a class it is not `Sendable`, so the coders' closures could not share it.
enum ISO8601Timestamp {
    /// Seconds from 1970 to 2001, the reference date `Date` counts from.
    private static let referenceOffset: Int64 = 978_307_200

    /// `date` as text. Nine fractional digits are enough to read back the very same `Date`: its
    /// resolution around today is about a tenth of a microsecond.
    static func string(from date: Date) -> String {
        let since2001 = date.timeIntervalSinceReferenceDate
        var whole = since2001.rounded(.down)
        var nanoseconds = Int64(((since2001 - whole) * 1e9).rounded())
        if nanoseconds == 1_000_000_000 {
            whole += 1
            nanoseconds = 0
        }
        let seconds = Int64(whole) + referenceOffset
        let (days, secondOfDay) = floorDivision(seconds, 86_400)
        let (year, month, day) = civil(fromDays: days)
        var text =
            pad(year, 4) + "-" + pad(month, 2) + "-" + pad(day, 2) + "T" + pad(secondOfDay / 3_600, 2) + ":"
            + pad(secondOfDay / 60 % 60, 2) + ":" + pad(secondOfDay % 60, 2)
        if nanoseconds > 0 {
            var fraction = pad(nanoseconds, 9)
            while fraction.hasSuffix("0") { fraction.removeLast() }
            text += "." + fraction
        }
        return text + "Z"
    }

    /// The date `text` writes, or `nil` when it is not an ISO 8601 date and time.
    static func date(from text: String) -> Date? {
        let bytes = Array(text.utf8)
        var index = 0
        func number(_ digits: Int) -> Int64? {
            guard index + digits <= bytes.count else { return nil }
            var value: Int64 = 0
            for byte in bytes[index..<index + digits] {
                guard byte >= 48, byte <= 57 else { return nil }
                value = value * 10 + Int64(byte - 48)
            }
            index += digits
            return value
        }
        func skip(_ byte: UInt8) -> Bool {
            guard index < bytes.count, bytes[index] == byte else { return false }
            index += 1
            return true
        }
        guard let year = number(4), skip(45), let month = number(2), skip(45), let day = number(2),
            skip(84) || skip(116), let hour = number(2), skip(58), let minute = number(2), skip(58),
            let second = number(2), (1...12).contains(month), (1...31).contains(day), hour < 24, minute < 60,
            second <= 60
        else { return nil }
        var fraction = 0.0
        if skip(46) {
            let start = index
            while index < bytes.count, bytes[index] >= 48, bytes[index] <= 57 { index += 1 }
            guard index > start,
                let digits = Double("0." + String(decoding: bytes[start..<index], as: UTF8.self))
            else { return nil }
            fraction = digits
        }
        var offset: Int64 = 0
        if !(skip(90) || skip(122)) {
            let sign: Int64 = skip(43) ? 1 : skip(45) ? -1 : 0
            guard sign != 0, let hours = number(2) else { return nil }
            _ = skip(58)
            guard let minutes = number(2), hours < 24, minutes < 60 else { return nil }
            offset = sign * (hours * 3_600 + minutes * 60)
        }
        guard index == bytes.count,
            civil(fromDays: days(fromYear: year, month: month, day: day)) == (year, month, day)
        else { return nil }  // the end of the text, and a day the month has
        let seconds =
            days(fromYear: year, month: month, day: day) * 86_400 + hour * 3_600 + minute * 60 + second
            - offset
        return Date(timeIntervalSinceReferenceDate: Double(seconds - referenceOffset) + fraction)
    }

    /// The days from 1970-01-01 to a date of the proleptic Gregorian calendar (Howard Hinnant's
    /// `days_from_civil`).
    private static func days(fromYear year: Int64, month: Int64, day: Int64) -> Int64 {
        let year = month <= 2 ? year - 1 : year
        let era = floorDivision(year, 400).quotient
        let yearOfEra = year - era * 400
        let dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    /// The date of the day `days` after 1970-01-01 (`civil_from_days`).
    private static func civil(fromDays days: Int64) -> (year: Int64, month: Int64, day: Int64) {
        let shifted = days + 719_468
        let era = floorDivision(shifted, 146_097).quotient
        let dayOfEra = shifted - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1_460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthIndex = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * monthIndex + 2) / 5 + 1
        let month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }

    private static func floorDivision(_ value: Int64, _ divisor: Int64) -> (quotient: Int64, remainder: Int64)
    {
        let remainder = (value % divisor + divisor) % divisor
        return ((value - remainder) / divisor, remainder)
    }

    private static func pad(_ value: Int64, _ width: Int) -> String {
        let digits = String(value)
        return String(repeating: "0", count: max(0, width - digits.count)) + digits
    }
}
