import Foundation  // String.contains(_:) before macOS 13 / iOS 16
import Testing

@testable import Services

/// Integers read from the database are checked before they become a Swift integer: SQLite's are
/// 64-bit, `Int` is 32-bit on watchOS. A 32-bit integer stands in for it here.
@Suite("Integers from the database")
struct FixedWidthIntegerDatabaseTests {
    @Test("a value that fits is read as it is, at both ends of the range")
    func fits() throws {
        // Given / When / Then
        #expect(try Int32(database: Int64(Int32.max), column: "n") == Int32.max)
        #expect(try Int32(database: Int64(Int32.min), column: "n") == Int32.min)
        #expect(try Int(database: Int64.max, column: "n") == Int(Int64.max))
    }

    @Test("a value that does not fit is a type-mismatch error naming the column, not a crash")
    func doesNotFit() {
        // Given
        let tooLarge = Int64(Int32.max) + 1

        // When
        let error = #expect(throws: DatabaseError.self) {
            try Int32(database: tooLarge, column: "orders.total")
        }

        // Then
        #expect(error?.kind == .typeMismatch)
        #expect(error?.description.contains("orders.total") == true)
        #expect(error?.description.contains("2147483648") == true)
    }
}
