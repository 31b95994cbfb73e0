import Foundation
import Testing

@testable import Orders

@Suite("Amounts read back from the orders tables")
struct StoredAmountTests {
    @Test(
        "an amount reads back as the general parser reads it: trailing zeros, negatives, long, odd and broken forms",
        arguments: [
            "0", "1.23", "12.50", "-3", "-0", "0.000001", "99.990", "123456789012345678",
            "1234567890123456789012", "1e3", ".5", "5.", "1000000.5", "", "-", ".", "abc", "1.2.3x", "--1",
        ])
    func sameAsGeneralParser(text: String) {
        // Given text as the store writes amounts, or as another writer might have
        let expected = Decimal(string: text, locale: Locale(identifier: "en_US_POSIX"))

        // When it is read back
        let read = Decimal.reading(storedText: text)

        // Then it is the same amount, written the same way, or nothing for both
        #expect(read == expected)
        #expect(read.map { "\($0)" } == expected.map { "\($0)" })
    }

    @Test(
        "the forms the tables store take the fast reading (a sign, a point, 18 digits); others do not",
        arguments: [
            ("-3", true), ("12.50", true), ("-0.25", true), ("123456789012345678", true),
            ("1234567890123456789", false), ("1.2.3", false), ("1e3", false), ("-", false), ("--1", false),
        ])
    func fastReading(text: String, isPlain: Bool) {
        // When
        let plain = Decimal.plain(text)

        // Then: what it reads is the general parser's amount; the rest is left to that parser
        #expect((plain != nil) == isPlain)
        if let plain { #expect(plain == Decimal(string: text, locale: Locale(identifier: "en_US_POSIX"))) }
    }
}
