import Foundation

extension Decimal {
    /// Reads an amount as the orders tables store it (`"\(decimal)"`: an optional `-`, digits, an
    /// optional `.` and more digits), without `Decimal(string:locale:)`'s general parser, which
    /// costs about 40 times as much and is most of the time a long listing spends on amounts.
    /// Anything else (more than 18 digits, an exponent, stray characters) is left to that parser.
    ///
    /// - Parameter text: The stored text.
    /// - Returns: The amount, or `nil` when neither reading makes sense of `text`.
    static func reading(storedText text: String) -> Decimal? {
        plain(text) ?? Decimal(string: text, locale: posix)
    }

    private static let posix = Locale(identifier: "en_US_POSIX")

    /// `text` as a plain decimal of at most 18 digits, or `nil` if it is anything else: the fast
    /// reading, which every amount the tables store takes.
    static func plain(_ text: String) -> Decimal? {
        var bytes = text.utf8[...]
        let negative = bytes.first == UInt8(ascii: "-")
        if negative { bytes = bytes.dropFirst() }
        var significand: UInt64 = 0
        var digits = 0
        var fractionDigits = 0
        var seenPoint = false
        for byte in bytes {
            if byte == UInt8(ascii: "."), !seenPoint {
                seenPoint = true
                continue
            }
            // 18 digits always fit in a UInt64; longer amounts go to the general parser.
            guard byte.isASCIIDigit, digits < 18 else { return nil }
            digits += 1
            significand = significand * 10 + UInt64(byte - UInt8(ascii: "0"))
            if seenPoint { fractionDigits += 1 }
        }
        guard digits > 0 else { return nil }
        return Decimal(
            sign: negative ? .minus : .plus, exponent: -fractionDigits, significand: Decimal(significand))
    }
}
