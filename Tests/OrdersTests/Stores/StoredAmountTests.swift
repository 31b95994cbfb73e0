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
}
