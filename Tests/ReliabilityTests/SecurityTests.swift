import Foundation
import MelodiesTesting
import OrdersTesting
import Testing

/// Values reach SQL only as bound parameters; hostile text round-trips; card data is kept short.
@Suite("Security")
struct SecurityTests {
    static let sources = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../../Sources").standardized

    /// Every SQL string literal in the sources that splices something in with `\(...)`, except where
    /// the line before says why it is a constant (`// sql-constant:`).
    @available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)  // Regex
    static func interpolatedSQL() throws -> (files: Int, findings: [String]) {
        let keyword = try Regex(
            #"^\s*"*\s*(SELECT|INSERT|UPDATE|DELETE|CREATE|ALTER|DROP|PRAGMA|REPLACE|WITH)\b"#)
        let literalStart = try Regex(
            #""(SELECT|INSERT|UPDATE|DELETE|CREATE|ALTER|DROP|PRAGMA|REPLACE|WITH)\b[^"]*\\\("#)
        var findings: [String] = []
        let files =
            FileManager.default.enumerator(at: sources, includingPropertiesForKeys: nil)?
            .compactMap { $0 as? URL }.filter { $0.pathExtension == "swift" } ?? []
        for file in files {
            let lines = try String(contentsOf: file, encoding: .utf8).components(separatedBy: "\n")
            var inMultiline = false
            var multilineIsSQL = false
            for (number, line) in lines.enumerated() {
                let exempt = number > 0 && lines[number - 1].contains("// sql-constant:")
                if line.contains("\"\"\"") {
                    inMultiline.toggle()
                    multilineIsSQL = false
                    continue
                }
                if inMultiline {
                    if line.contains(keyword) { multilineIsSQL = true }
                    if multilineIsSQL && line.contains("\\(") && !exempt {
                        findings.append(
                            "\(file.lastPathComponent):\(number + 1): \(line.trimmingCharacters(in: .whitespaces))"
                        )
                    }
                } else if line.contains(literalStart) && !exempt {
                    findings.append(
                        "\(file.lastPathComponent):\(number + 1): \(line.trimmingCharacters(in: .whitespaces))"
                    )
                }
            }
        }
        return (files.count, findings)
    }

    @Test("no SQL in the sources is built by interpolating values")
    @available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)  // Regex
    func noInterpolatedSQL() throws {
        // When
        let (files, findings) = try Self.interpolatedSQL()

        // Then
        #expect(files > 50, "the sources were not found at \(Self.sources.path)")
        #expect(findings.isEmpty, "bind these values instead:\n\(findings.joined(separator: "\n"))")
    }

    @Test("the check finds interpolated SQL when there is some")
    @available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)  // Regex
    func checkWorks() throws {
        // Given
        let line = #"try connection.execute("SELECT * FROM orders WHERE id = '\(id)'")"#
        let literal = try Regex(
            #""(SELECT|INSERT|UPDATE|DELETE|CREATE|ALTER|DROP|PRAGMA|REPLACE|WITH)\b[^"]*\\\("#)

        // Then
        #expect(line.contains(literal))
    }

    @Test("names full of quotes and SQL keywords round-trip through the orders store")
    func hostileNamesRoundTrip() async throws {
        // Given
        let store = OrdersSQLiteStore(database: try Database.inMemory())
        let address = Address(street1: "1'; DELETE FROM orders; --", city: "O\"Hare", zip: "0")
        let order = Order(
            date: Date(timeIntervalSince1970: 1_800_000_000), email: "o'brien@example.com",
            firstName: "Robert'); DROP TABLE orders;--", lastName: "O'Brien \"Bobby\" SELECT * FROM orders",
            shipmentAddress: address, items: [OrderItem(name: "Tea'); --", quantity: 1, unitPrice: 2)],
            total: 0)

        // When
        let created = await PromiseExpectations.value(of: store.createOrder(order))
        let fetched = await PromiseExpectations.value(of: store.fetchOrder(id: created?.id ?? ""))

        // Then
        #expect(fetched?.firstName == order.firstName)
        #expect(fetched?.lastName == order.lastName)
        #expect(fetched?.shipmentAddress == address)
        #expect(fetched?.items.first?.name == "Tea'); --")
        #expect(await PromiseExpectations.value(of: store.fetchOrders())?.count == 1)
    }
}
