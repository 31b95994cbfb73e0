import Foundation
import OfflineKit
import OrdersTesting
import Testing

/// One contract, four stores: memory, SQLite, the REST API on a real loopback server, and the API
/// with its offline copy (`FallbackOrdersStore`).
@Suite("OrdersStore contract")
struct OrdersStoreContractTests {
    enum Kind: String, CaseIterable, Sendable {
        case memory, sqlite, api, fallback
    }

    /// A store of `kind`, empty, and what keeps it alive.
    /// `kind`'s store; one that uses the API reaches `api`, or its own loopback shop without one.
    static func makeStore(_ kind: Kind, api: URL? = nil) throws -> (any OrdersStore, Any?) {
        switch kind {
        case .memory:
            return (OrdersMemStore(orders: []), nil)
        case .sqlite:
            let folder = TemporaryFolder("OrdersStoreContractTests")
            return (OrdersSQLiteStore(database: try Database(at: folder.file("orders.sqlite"))), folder)
        case .api:
            let backend = TestOrdersShop()
            let server = try TestHTTPServer(handler: backend.handle)
            return (OrdersAPI(client: APIClient(baseURL: api ?? server.baseURL, timeout: 30)), server)
        case .fallback:
            let backend = TestOrdersShop()
            let server = try TestHTTPServer(handler: backend.handle)
            let folder = TemporaryFolder("OrdersStoreContractTests")
            let store = FallbackOrdersStore(
                api: OrdersAPI(client: APIClient(baseURL: api ?? server.baseURL, timeout: 30)),
                cache: OrdersSQLiteStore(database: try Database(at: folder.file("orders.sqlite"))))
            return (store, (server, folder))
        }
    }

    /// The fields `error` refuses, when it is an `invalid` of `operation`; records an issue and
    /// gives `nil` otherwise.
    static func invalidFields(
        of error: OrdersStoreError?, in operation: OrdersStoreError.Operation,
        sourceLocation: SourceLocation = #_sourceLocation
    ) -> [OrderFieldError]? {
        #expect(error?.operation == operation, sourceLocation: sourceLocation)
        guard case .invalid(let fields)? = error?.reason else {
            Issue.record("expected invalid, got \(String(describing: error))", sourceLocation: sourceLocation)
            return nil
        }
        return fields
    }

    @Test("create gives a new id and computes the total; fetch finds it", arguments: Kind.allCases)
    func createThenFetch(_ kind: Kind) async throws {
        // Given
        let (store, server) = try Self.makeStore(kind)

        // When
        let created = await PromiseExpectations.value(of: store.createOrder(validOrder()))

        // Then
        let id = try #require(created?.id)
        #expect(!id.isEmpty)
        #expect(created?.total == Decimal(string: "23.49"))
        let fetched = await PromiseExpectations.value(of: store.fetchOrder(id: id))
        #expect(fetched?.email == "carol.cherry@clean-swift.com")
        #expect(fetched?.items == validOrder().items)
        #expect(fetched?.total == Decimal(string: "23.49"))
        #expect(fetched?.paymentMethod.lastFourDigits == "1881")
        let all = await PromiseExpectations.value(of: store.fetchOrders())
        #expect(all?.map(\.id) == [id])
        _ = server
    }

    @Test("two creates get two ids; the list is newest first", arguments: Kind.allCases)
    func listNewestFirst(_ kind: Kind) async throws {
        // Given
        let (store, server) = try Self.makeStore(kind)
        var older = validOrder(email: "old@example.com")
        older.date = day(2026, 1, 1)

        // When
        let first = await PromiseExpectations.value(of: store.createOrder(older))
        let second = await PromiseExpectations.value(
            of: store.createOrder(validOrder(email: "new@example.com")))

        // Then
        #expect(first?.id != second?.id)
        let all = await PromiseExpectations.value(of: store.fetchOrders())
        #expect(all?.map(\.email) == ["new@example.com", "old@example.com"])
        _ = server
    }

    @Test("orders of the same date are listed by identifier, as pages list them", arguments: Kind.allCases)
    func sameDateListedByIdentifier(_ kind: Kind) async throws {
        // Given: five orders of one date (one order in 120 would be sorted by chance)
        let (store, server) = try Self.makeStore(kind)
        var ids: [String] = []
        for number in 1...5 {
            let created = await PromiseExpectations.value(
                of: store.createOrder(validOrder(email: "same-day-\(number)@example.com")))
            ids.append(try #require(created?.id))
        }

        // When
        let all = await PromiseExpectations.value(of: store.fetchOrders())

        // Then
        #expect(all?.map(\.id) == ids.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) })
        _ = server
    }

    @Test("update replaces the order and recomputes its total", arguments: Kind.allCases)
    func update(_ kind: Kind) async throws {
        // Given
        let (store, server) = try Self.makeStore(kind)
        var order = try #require(await PromiseExpectations.value(of: store.createOrder(validOrder())))

        // When
        order.email = "carol@cherry.example"
        order.items = [OrderItem(name: "Cherry", quantity: 10, unitPrice: 1)]
        order.total = 0
        let updated = await PromiseExpectations.value(of: store.updateOrder(order))

        // Then
        #expect(updated?.total == Decimal(string: "15.99"))
        let fetched = await PromiseExpectations.value(of: store.fetchOrder(id: order.id ?? ""))
        #expect(fetched?.email == "carol@cherry.example")
        #expect(fetched?.items.count == 1)
        _ = server
    }

    @Test(
        "an invalid update is refused with a message per field; the order stays as it was",
        arguments: Kind.allCases)
    func invalidUpdate(_ kind: Kind) async throws {
        // Given
        let (store, server) = try Self.makeStore(kind)
        var order = try #require(await PromiseExpectations.value(of: store.createOrder(validOrder())))

        // When
        order.email = "not an email"
        let error = await PromiseExpectations.error(of: store.updateOrder(order)) as? OrdersStoreError

        // Then
        let fields = Self.invalidFields(of: error, in: .updateOrder)
        #expect(fields?.map(\.field) == [.email])
        let kept = await PromiseExpectations.value(of: store.fetchOrder(id: order.id ?? ""))
        #expect(kept?.email == "carol.cherry@clean-swift.com")
        _ = server
    }

    @Test("a customer's orders are theirs alone", arguments: Kind.allCases)
    func ordersOfOneCustomer(_ kind: Kind) async throws {
        // Given: an order of each of two customers
        let (store, server) = try Self.makeStore(kind)
        var carols = validOrder()
        carols.customerID = "carol"
        var daves = validOrder(email: "dave@example.com")
        daves.customerID = "dave"
        for order in [carols, daves] { _ = await PromiseExpectations.value(of: store.createOrder(order)) }

        // When
        let page = await PromiseExpectations.value(of: store.fetchOrders(ofCustomer: "dave"))

        // Then
        #expect(page?.orders.map(\.email) == ["dave@example.com"])
        #expect(page?.count == 1)
        _ = server
    }

    @Test("watching the orders kept here: what is kept at once, then each change", arguments: Kind.allCases)
    func watchKept(_ kind: Kind) async throws {
        // Given: one order kept
        let (store, server) = try Self.makeStore(kind)
        _ = await PromiseExpectations.value(of: store.createOrder(validOrder()))
        let seen = DeliveryRecorder<[String]>()

        // When: watched, then a second order made
        let observation = store.watchOrders(on: .inline) { result in
            if case .success(let snapshot) = result { seen.record(snapshot.orders.map(\.email).sorted()) }
        }
        defer { observation?.cancel() }
        guard observation != nil else {
            // Then: a store that keeps nothing to watch (memory, the API alone) says so
            #expect(kind == .memory || kind == .api)
            return
        }
        _ = await PromiseExpectations.value(of: store.createOrder(validOrder(email: "dave@example.com")))

        // Then
        #expect(await seen.next { $0.count == 1 } == ["carol.cherry@clean-swift.com"])
        #expect(await seen.next { $0.count == 2 } == ["carol.cherry@clean-swift.com", "dave@example.com"])
        _ = server
    }

    @Test("delete removes the order and gives it back", arguments: Kind.allCases)
    func delete(_ kind: Kind) async throws {
        // Given
        let (store, server) = try Self.makeStore(kind)
        let order = try #require(await PromiseExpectations.value(of: store.createOrder(validOrder())))

        // When
        let deleted = await PromiseExpectations.value(of: store.deleteOrder(id: order.id ?? ""))

        // Then
        #expect(deleted?.id == order.id)
        #expect(await PromiseExpectations.value(of: store.fetchOrders()) == [])
        _ = server
    }

    @Test("fetch, update and delete of an unknown id reject with notFound", arguments: Kind.allCases)
    func notFound(_ kind: Kind) async throws {
        // Given
        let (store, server) = try Self.makeStore(kind)
        var ghost = validOrder()
        ghost.id = "no-such-order"

        // When
        let errors = [
            await PromiseExpectations.error(of: store.fetchOrder(id: "no-such-order")),
            await PromiseExpectations.error(of: store.updateOrder(ghost)),
            await PromiseExpectations.error(of: store.deleteOrder(id: "no-such-order")),
        ]

        // Then
        #expect(
            errors.map { $0 as? OrdersStoreError } == [
                OrdersStoreError(.fetchOrder, .notFound(id: "no-such-order")),
                OrdersStoreError(.updateOrder, .notFound(id: "no-such-order")),
                OrdersStoreError(.deleteOrder, .notFound(id: "no-such-order")),
            ])
        _ = server
    }

    @Test(
        "an invalid order is refused with a message per field, and nothing is stored",
        arguments: Kind.allCases)
    func invalidInput(_ kind: Kind) async throws {
        // Given
        let (store, server) = try Self.makeStore(kind)
        var invalid = validOrder(email: "not an email", items: [])
        invalid.firstName = " "

        // When
        let error = await PromiseExpectations.error(of: store.createOrder(invalid)) as? OrdersStoreError

        // Then
        let fields = Self.invalidFields(of: error, in: .createOrder)
        #expect(fields?.map(\.field) == [.firstName, .email, .items])
        #expect(await PromiseExpectations.value(of: store.fetchOrders()) == [])
        _ = server
    }

    @Test(
        "with the API out of reach, the API store says so and the fallback store keeps the order",
        arguments: [Kind.api, .fallback])
    func unreachable(_ kind: Kind) async throws {
        // Given: a store whose API is down, its port held refused for the test's life
        let down = try ClosedPort()
        defer { withExtendedLifetime(down) {} }
        let nowhere = down.baseURL
        let (store, server) = try Self.makeStore(kind, api: nowhere)

        // When / Then
        if kind == .api {
            let error = await PromiseExpectations.error(of: store.createOrder(validOrder()))
            #expect((error as? OrdersStoreError)?.reason == .storage(.noNetwork))
        } else {
            let created = await PromiseExpectations.value(of: store.createOrder(validOrder()))
            #expect(await PromiseExpectations.value(of: store.fetchOrders())?.map(\.id) == [created?.id])
            #expect(await PromiseExpectations.value(of: store.syncStatus())?.waiting == 1)
        }
        _ = server
    }
}
