import Foundation
import OrdersTesting
import Testing

// Runs the demo as a subprocess: compiled where tests can start one (Package.swift, `subprocesses`).
#if SUBPROCESSES

    @Suite("demo: a list longer than a page")
    struct LongListDemoTests {
        @Test(
            "offline, 2,345 orders print a page at a time: each once, newest first, in columns that line up")
        func longListPrintsInPages() async throws {
            // Given: more orders than three pages of the demo's thousand hold
            let demo = DemoRunner()
            let count = 2_345
            let orders = (0..<count).map { index in
                Order(
                    id: String(format: "long-%04d", index),
                    date: Date(timeIntervalSince1970: 1_000_000 - Double(index)),
                    email: index == 2_000
                        ? "a.much.longer.address.than.the.first.page.has@example.com" : "b\(index)@x.io",
                    firstName: "F\(index)", lastName: "L", total: Decimal(index))
            }
            let store = OrdersSQLiteStore(database: try Database(at: demo.database))
            // Generous: under ThreadSanitizer, on two cores shared with the other tests, saving
            // 2,345 orders has taken close to the default 10 s.
            _ = await PromiseExpectations.value(of: store.save(orders, at: Date()), timeout: 120)

            // When
            let run = try await demo.run(["orders", "--offline"], environment: ["COLUMNS": "120"])

            // Then: the title counts them all, every id once in order, every row's "Shop" column at
            // the header's place, the late long address cut to the first page's width
            let lines = run.output.split(separator: "\n").map(String.init)
            let rows = lines.filter { $0.hasPrefix("long-") }
            let header = lines.first { $0.hasPrefix("ID ") } ?? ""
            let shop = header.range(of: "Shop").map {
                header.distance(from: header.startIndex, to: $0.lowerBound)
            }
            #expect(run.status == 0, "\(run.error)")
            #expect(lines.first == "Orders (\(count))")
            #expect(rows.map { String($0.prefix(9)) } == orders.map { $0.id ?? "" })
            #expect(shop != nil)
            #expect(rows.allSatisfy { $0.hasSuffix("synced") && $0.count == (shop ?? 0) + "synced".count })
            #expect(rows[2_000].contains("…"))
            // How long ago depends on how long the save and the run took (a minute, once, under
            // ThreadSanitizer on a loaded machine): the notice is checked, not the age it gives.
            #expect(run.output.contains("Showing orders saved "))
        }
    }

#endif
