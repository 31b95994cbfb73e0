public import Foundation

/// Turns order values into the strings screens show: short dates, currency totals, full names,
/// masked cards.
///
/// Its formatters are made once, for the locale, time zone and currency given: make one per
/// presenter, not one per order.
public struct OrderFormatter: Sendable {
    private let dateFormatter: DateFormatter
    private let currencyFormatter: NumberFormatter
    /// The language and region dates and totals are written for.
    public let locale: Locale
    /// The time zone dates are shown in.
    public let timeZone: TimeZone

    /// Makes a formatter.
    ///
    /// - Parameters:
    ///   - locale: The language and region; the user's by default.
    ///   - timeZone: The time zone dates are shown in; the user's by default.
    ///   - currencyCode: The ISO 4217 currency of totals; the locale's by default.
    public init(locale: Locale = .current, timeZone: TimeZone = .current, currencyCode: String? = nil) {
        let dateFormatter = DateFormatter()
        dateFormatter.locale = locale
        dateFormatter.timeZone = timeZone
        dateFormatter.dateStyle = .short
        dateFormatter.timeStyle = .none
        self.dateFormatter = dateFormatter
        self.locale = locale
        self.timeZone = timeZone
        let currencyFormatter = NumberFormatter()
        currencyFormatter.locale = locale
        currencyFormatter.numberStyle = .currency
        if let currencyCode { currencyFormatter.currencyCode = currencyCode }
        self.currencyFormatter = currencyFormatter
    }

    /// A date in short style, such as `6/29/07` in the US.
    ///
    /// - Parameter date: The date.
    /// - Returns: The text.
    public func date(_ date: Date) -> String {
        dateFormatter.string(from: date)
    }

    /// Formats many dates in short style, formatting each calendar day once: lists of orders have
    /// many on the same day, and formatting is the expensive part.
    ///
    /// - Parameter dates: The dates, in any order.
    /// - Returns: The texts, in the same order.
    public func dates(_ dates: [Date]) -> [String] {
        var byDay: [Int: String] = [:]
        return dates.map { date in
            let local = date.timeIntervalSince1970 + Double(timeZone.secondsFromGMT(for: date))
            let day = Int((local / 86_400).rounded(.down))
            if let text = byDay[day] { return text }
            let text = self.date(date)
            byDay[day] = text
            return text
        }
    }

    /// An amount in the currency, such as `$1.23`.
    ///
    /// - Parameter amount: The amount.
    /// - Returns: The text.
    public func currency(_ amount: Decimal) -> String {
        currencyFormatter.string(from: NSDecimalNumber(decimal: amount)) ?? "\(amount)"
    }

    /// First and last name, such as `Amy Apple`.
    ///
    /// - Parameter order: The order.
    /// - Returns: The text.
    public func name(_ order: Order) -> String {
        if order.firstName.isEmpty { return order.lastName }
        if order.lastName.isEmpty { return order.firstName }
        return order.firstName + " " + order.lastName
    }
}
