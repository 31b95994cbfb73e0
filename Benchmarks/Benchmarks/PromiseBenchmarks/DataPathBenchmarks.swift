import Benchmark
import CSQLiteBenchmark
import Foundation
import Melodies
import Orders
import Promises
import Services

/// The data path: formatting orders, the SQLite store beside the raw sqlite3 calls doing the same
/// work, and the melodies fallback answering from its cache.
func dataPathBenchmarks() {
    let timing = Benchmark.Configuration(
        metrics: [.wallClock, .mallocCountTotal], timeUnits: .microseconds, warmupIterations: 1,
        maxDuration: .seconds(5), maxIterations: 20)
    let count = 10_000
    let orders = sampleOrders(count)

    Benchmark("5 format 10k orders / ListOrdersPresenter", configuration: timing) { _ in
        let shown = await present(orders)
        precondition(shown == count)
    }

    Benchmark("5 orders write+fetch 10k / OrdersSQLiteStore", configuration: timing) { benchmark in
        let folder = temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = OrdersSQLiteStore(
            database: try Database(at: folder.appendingPathComponent("orders.sqlite")))
        _ = try await store.fetchOrders().value  // schema ready before measuring
        benchmark.startMeasurement()
        try await store.save(orders, at: Date()).value
        let fetched = try await store.fetchOrders().value
        benchmark.stopMeasurement()
        precondition(fetched.count == count)
    }

    Benchmark("5 orders write+fetch 10k / raw sqlite3", configuration: timing) { benchmark in
        let folder = temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("orders.sqlite")
        _ = try await OrdersSQLiteStore(database: try Database(at: file)).fetchOrders().value  // its tables
        let raw = try RawOrders(file: file)
        benchmark.startMeasurement()
        raw.write(orders)
        let fetched = raw.fetch()
        benchmark.stopMeasurement()
        precondition(fetched.count == count)
    }

    let melodies = (0..<count).map { index in
        Melody(
            id: index, title: "Melody \(index)", artist: "Artist \(index % 200)",
            album: "Album \(index % 900)",
            durationSeconds: 120 + index % 400)
    }

    Benchmark("5 melodies 10k cached / LiveMelodyService offline", configuration: timing) { benchmark in
        let folder = temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let database = try Database(at: folder.appendingPathComponent("melodies.sqlite"))
        try await MelodyCache(database: database).save(melodies, at: Date()).value
        let service = LiveMelodyService(
            api: APIClient(baseURL: URL(fileURLWithPath: "/")), database: database, reachability: Offline())
        benchmark.startMeasurement()
        let fetched = try await service.getMelodiesWithSource().value
        benchmark.stopMeasurement()
        precondition(fetched.value.count == count)
    }

    Benchmark("5 melodies 10k cached / raw sqlite3", configuration: timing) { benchmark in
        let folder = temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("melodies.sqlite")
        let database = try Database(at: file)
        try await MelodyCache(database: database).save(melodies, at: Date()).value
        let raw = RawMelodies(file: file)
        benchmark.startMeasurement()
        let fetched = raw.read()
        benchmark.stopMeasurement()
        precondition(fetched.count == count)
    }
}

struct Offline: ConnectivityMonitor {
    var isReachable: Bool { false }
}

func temporaryFolder() -> URL {
    FileManager.default.temporaryDirectory.appendingPathComponent("promise-mvp-bench-\(UUID().uuidString)")
}

func sampleOrders(_ count: Int) -> [Order] {
    (0..<count).map { index in
        let address = Address(street1: "\(index) Main Street", city: "Springfield", state: "IL", zip: "62701")
        return Order(
            id: "order-\(index)", date: Date(timeIntervalSince1970: 1_700_000_000 + Double(index) * 60),
            email: "buyer\(index)@example.com", firstName: "First\(index)", lastName: "Last\(index)",
            phone: "555-0100", billingAddress: address, shipmentAddress: address,
            paymentMethod: PaymentMethod(
                creditCardNumber: "4111 1111 1111 1111",
                expirationDate: Date(timeIntervalSince1970: 1_900_000_000),
                cvv: "123"),
            shipmentMethod: ShipmentMethod(speed: .twoDay),
            items: [
                OrderItem(
                    name: "Thing \(index % 50)", quantity: 1 + index % 3, unitPrice: Decimal(index % 100))
            ],
            total: Decimal(index))
    }
}

let transientDestructor = unsafeBitCast(OpaquePointer(bitPattern: -1), to: sqlite3_destructor_type.self)

/// The same orders table and work as `OrdersSQLiteStore.save` + `fetchOrders`, in sqlite3 calls.
final class RawOrders {
    private var handle: OpaquePointer?

    /// Opens `file`, whose tables `OrdersSQLiteStore` made.
    init(file: URL) throws {
        sqlite3_open_v2(
            file.path, &handle, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX, nil)
        sqlite3_exec(handle, "PRAGMA journal_mode = WAL", nil, nil, nil)
        // The store that wrote the file may still be closing it (checkpointing its WAL): wait for
        // it rather than read half the rows when a step comes back busy.
        sqlite3_busy_timeout(handle, 10_000)
    }

    deinit {
        sqlite3_close_v2(handle)
    }

    func write(_ orders: [Order]) {
        sqlite3_exec(handle, "BEGIN IMMEDIATE", nil, nil, nil)
        sqlite3_exec(handle, "DELETE FROM orders", nil, nil, nil)
        let insert = prepare(
            "INSERT INTO orders (id, date, email, first_name, last_name, phone, billing_street1, billing_street2, billing_city, billing_state, billing_zip, shipment_street1, shipment_street2, shipment_city, shipment_state, shipment_zip, card_last4, card_expiration, shipment_speed, total, origin) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
        )
        let insertItem = prepare(
            "INSERT INTO order_items (order_id, position, name, quantity, unit_price) VALUES (?, ?, ?, ?, ?)")
        for order in orders {
            sqlite3_reset(insert)
            let id = order.id ?? ""
            var column: Int32 = 0
            func text(_ value: String) {
                column += 1
                sqlite3_bind_text(insert, column, value, -1, transientDestructor)
            }
            text(id)
            column += 1
            sqlite3_bind_double(insert, column, order.date.timeIntervalSince1970)
            for value in [order.email, order.firstName, order.lastName, order.phone] { text(value) }
            for address in [order.billingAddress, order.shipmentAddress] {
                for value in [address.street1, address.street2, address.city, address.state, address.zip] {
                    text(value)
                }
            }
            text(order.paymentMethod.lastFourDigits)
            column += 1
            sqlite3_bind_double(insert, column, order.paymentMethod.expirationDate.timeIntervalSince1970)
            column += 1
            sqlite3_bind_int64(insert, column, Int64(order.shipmentMethod.speed.rawValue))
            text("\(order.total)")
            text("api")
            precondition(sqlite3_step(insert) == SQLITE_DONE)
            for (position, item) in order.items.enumerated() {
                sqlite3_reset(insertItem)
                sqlite3_bind_text(insertItem, 1, id, -1, transientDestructor)
                sqlite3_bind_int64(insertItem, 2, Int64(position))
                sqlite3_bind_text(insertItem, 3, item.name, -1, transientDestructor)
                sqlite3_bind_int64(insertItem, 4, Int64(item.quantity))
                sqlite3_bind_text(insertItem, 5, "\(item.unitPrice)", -1, transientDestructor)
                precondition(sqlite3_step(insertItem) == SQLITE_DONE)
            }
        }
        sqlite3_finalize(insert)
        sqlite3_finalize(insertItem)
        sqlite3_exec(handle, "COMMIT", nil, nil, nil)
    }

    /// The orders not deleted, newest first, as the store lists them: the same rows, through the
    /// same index (`orders_listed`, which holds only those rows).
    func fetch() -> [Order] {
        var items: [String: [OrderItem]] = [:]
        let itemQuery = prepare(
            "SELECT order_id, name, quantity, unit_price FROM order_items ORDER BY order_id, position")
        while sqlite3_step(itemQuery) == SQLITE_ROW {
            items[string(itemQuery, 0), default: []].append(
                OrderItem(
                    name: string(itemQuery, 1), quantity: Int(sqlite3_column_int64(itemQuery, 2)),
                    unitPrice: Decimal(string: string(itemQuery, 3)) ?? 0))
        }
        sqlite3_finalize(itemQuery)
        let query = prepare(
            "SELECT id, date, email, first_name, last_name, phone, billing_street1, billing_street2, billing_city, billing_state, billing_zip, shipment_street1, shipment_street2, shipment_city, shipment_state, shipment_zip, card_last4, card_expiration, shipment_speed, total FROM orders WHERE deleted = 0 ORDER BY date DESC, id"
        )
        var orders: [Order] = []
        while sqlite3_step(query) == SQLITE_ROW {
            let id = string(query, 0)
            func address(_ first: Int32) -> Address {
                Address(
                    street1: string(query, first), street2: string(query, first + 1),
                    city: string(query, first + 2),
                    state: string(query, first + 3), zip: string(query, first + 4))
            }
            orders.append(
                Order(
                    id: id, date: Date(timeIntervalSince1970: sqlite3_column_double(query, 1)),
                    email: string(query, 2),
                    firstName: string(query, 3), lastName: string(query, 4), phone: string(query, 5),
                    billingAddress: address(6), shipmentAddress: address(11),
                    paymentMethod: PaymentMethod(
                        creditCardNumber: "•••• " + string(query, 16),
                        expirationDate: Date(timeIntervalSince1970: sqlite3_column_double(query, 17)), cvv: ""
                    ),
                    shipmentMethod: ShipmentMethod(
                        speed: ShipmentMethod.ShippingSpeed(rawValue: Int(sqlite3_column_int64(query, 18)))
                            ?? .standard),
                    items: items[id] ?? [], total: Decimal(string: string(query, 19)) ?? 0))
        }
        sqlite3_finalize(query)
        return orders
    }

    private func prepare(_ sql: String) -> OpaquePointer? {
        var statement: OpaquePointer?
        sqlite3_prepare_v2(handle, sql, -1, &statement, nil)
        return statement
    }
}

/// Reads the melodies table with sqlite3 calls, as `MelodyCache.load` does, on a connection opened
/// beforehand (as the service's is).
final class RawMelodies {
    private var handle: OpaquePointer?

    init(file: URL) {
        sqlite3_open_v2(file.path, &handle, SQLITE_OPEN_READONLY | SQLITE_OPEN_NOMUTEX, nil)
    }

    deinit {
        sqlite3_close_v2(handle)
    }

    func read() -> [Melody] {
        var statement: OpaquePointer?
        sqlite3_prepare_v2(
            handle, "SELECT id, title, artist, album, duration_seconds FROM melodies ORDER BY position", -1,
            &statement,
            nil)
        defer { sqlite3_finalize(statement) }
        var melodies: [Melody] = []
        while sqlite3_step(statement) == SQLITE_ROW {
            melodies.append(
                Melody(
                    id: Int(sqlite3_column_int64(statement, 0)), title: string(statement, 1),
                    artist: string(statement, 2),
                    album: string(statement, 3), durationSeconds: Int(sqlite3_column_int64(statement, 4))))
        }
        return melodies
    }
}

private func string(_ statement: OpaquePointer?, _ column: Int32) -> String {
    sqlite3_column_text(statement, column).map { String(cString: $0) } ?? ""
}
