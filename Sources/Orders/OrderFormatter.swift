public import Foundation

/// Turns order values into the strings screens show: short dates, currency totals, full names,
/// masked cards.
///
/// Its formatters are made once, for the locale, time zone and currency given: make one per
/// presenter, not one per order.
public struct OrderFormatter: Sendable {
    private let dateFormatter: DateFormatter
    private let currencyFormatter: NumberFormatter

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
        [order.firstName, order.lastName].filter { !$0.isEmpty }.joined(separator: " ")
    }
}
