import Foundation
import OrdersTesting
import Testing

#if SUBPROCESSES  // where the demo is built: macOS and Linux (Package.swift)
    @testable import Demo
#endif

#if SUBPROCESSES
    /// The command line read from the option table (`Option.swift`, `Arguments.swift`), in process.
    @Suite("Arguments")
    struct ArgumentsTests {
        @Test("the usage names every option of the table, every verb of orders, and export-sample-api")
        func usageNamesEverything() {
            // When
            let usage = Arguments.usage

            // Then
            for option in Option.all {
                #expect(usage.contains("\(option.name) \(option.value)".trimmingCharacters(in: .whitespaces)))
            }
            for verb in Arguments.orderVerbs {
                #expect(usage.contains(verb.takesID ? "\(verb.verb) ID" : verb.verb))
            }
            #expect(usage.contains("demo export-sample-api FOLDER"))
            #expect(usage.split(separator: "\n").allSatisfy { $0.count <= 100 })
        }

        @Test("every part of an order is read from its option; items repeat, other parts keep the last value")
        func readsEveryOrderPart() throws {
            // When
            let parsed = try Arguments.parse(
                [
                    "orders", "create", "--first-name", "Eve", "--last-name", "Ng", "--email", "e@x.org",
                    "--street", "1 Main", "--city", "Town", "--zip", "12345", "--state", "CA", "--phone",
                    "555",
                    "--card", "4111111111111111", "--expires", "2030-02", "--cvv", "123",
                    "--shipping=one-day",
                    "--item", "Tea:2:1.50", "--item", "Cup:1:3", "--first-name", "Eva",
                ], environment: [:])

            // Then
            guard case .createOrder(let order) = parsed.command else {
                Issue.record("not a create: \(parsed.command)")
                return
            }
            #expect(order.firstName == "Eva" && order.lastName == "Ng" && order.email == "e@x.org")
            #expect(order.phone == "555")
            for address in [order.shipmentAddress, order.billingAddress] {
                #expect(address == Address(street1: "1 Main", city: "Town", state: "CA", zip: "12345"))
            }
            #expect(
                order.paymentMethod.creditCardNumber == "4111111111111111" && order.paymentMethod.cvv == "123"
            )
            #expect(order.paymentMethod.expirationDate == Date(timeIntervalSince1970: 1_896_134_400))
            #expect(order.shipmentMethod.speed == .oneDay)
            #expect(order.items.map(\.name) == ["Tea", "Cup"] && order.items.map(\.quantity) == [2, 1])
        }

        @Test(
            "each cache policy name is read as its policy; a wrong one names them all",
            arguments: [
                ("network-first", CachePolicy.networkFirst), ("cache-first", .cacheFirst(maxAge: 60)),
                ("cache-first=5", .cacheFirst(maxAge: 5)), ("cache-then-network", .cacheThenNetwork),
                ("network-only", .networkOnly), ("cache-only", .cacheOnly),
            ])
        func cachePolicies(name: String, policy: CachePolicy) throws {
            // When
            let parsed = try Arguments.parse(["melodies", "--cache", name], environment: [:])

            // Then
            #expect(parsed.cachePolicy == policy)
            #expect(throws: UsageError.self) {
                try Arguments.parse(["melodies", "--cache", "fast"], environment: [:])
            }
        }

        @Test(
            "an order option with another command names the option",
            arguments: ["--item", "--shipping", "--first-name"])
        func orderOptionElsewhere(option: String) {
            // When
            let error = #expect(throws: UsageError.self) {
                try Arguments.parse(["orders", "sync", option, "x"], environment: [:])
            }

            // Then
            #expect(error?.message == "\(option) only goes with 'orders create' or 'orders update'")
        }

        @Test(
            "an unknown command is named back, whatever its first word",
            arguments: [
                ["orders", "frobnicate"], ["customers", "frobnicate"], ["frobnicate"], ["sync", "now"],
            ])
        func unknownCommand(words: [String]) {
            // When
            let error = #expect(throws: UsageError.self) {
                try Arguments.parse(words, environment: [:])
            }

            // Then
            #expect(error?.message == "unknown command '\(words.joined(separator: " "))'")
        }

        @Test("orders update changes only the parts its options name; items given replace the order's")
        func updateChangesNamedParts() throws {
            // Given
            let parsed = try Arguments.parse(
                ["orders", "update", "abc123", "--last-name", "Ng", "--item", "Cup:1:3"], environment: [:])
            guard case .updateOrder(let id, let changes) = parsed.command else {
                Issue.record("not an update: \(parsed.command)")
                return
            }
            var order = try Arguments.order([
                "--first-name": ["Eve"], "--last-name": ["Elder"], "--item": ["Tea:2:1.50", "Jam:1:4"],
            ])

            // When
            try Arguments.apply(changes, to: &order)

            // Then
            #expect(id == "abc123")
            #expect(order.firstName == "Eve" && order.lastName == "Ng")
            #expect(order.items.map(\.name) == ["Cup"])
        }
    }
#endif
