public import Foundation
public import OfflineKit
public import Promises
public import Services

/// The shop's customers, kept offline beside the orders in the app's database (at `customers` of
/// the API): listed from the shop when it answers, created here when it cannot, and sent before
/// any order that names them.
///
/// Orders name a customer by ``Order/customerID``; a ``FallbackOrdersStore`` on the same database
/// sends such an order only once the shop answered the customer's create, naming the shop's
/// identifier, and renames the order here in the same transaction.
public struct CustomersStore: Sendable {
    /// The API's path of the customers, and the collection orders refer to.
    static let collection = "customers"
    var customers: OfflineCollection<Customer>

    /// Makes the store.
    ///
    /// - Parameters:
    ///   - database: The app's database, the orders' own.
    ///   - client: The shop's API client.
    ///   - reachability: Whether to try the network at all; by default always.
    ///   - makeID: Makes the identifier of a customer created here, until the shop gives its own.
    public init(
        database: Database, client: APIClient, reachability: any ConnectivityMonitor = .assumeReachable,
        makeID: @escaping @Sendable () -> String = { "local-" + UUID().uuidString }
    ) {
        customers = OfflineCollection(
            database: database, collection: Self.collection, client: client, reachability: reachability,
            makeID: makeID)
    }

    /// The customers as `policy` reads them, with this device's changes and each one's sync state.
    ///
    /// - Parameter policy: How the read uses the offline copy and the network; network first by
    ///   default.
    /// - Returns: A promise of the customers and where they came from.
    public func fetchCustomers(policy: CachePolicy = .networkFirst) -> Promise<
        Fetched<OfflineSnapshot<Customer>>
    > {
        customers.list(policy: policy)
    }

    /// One customer, by the identifier the shop gave or the one given here (which finds the
    /// customer after the shop named it otherwise).
    ///
    /// - Parameter id: The customer's identifier.
    /// - Returns: A promise of the customer, with the shop's identifier once it has one.
    public func fetchCustomer(id: String) -> Promise<Customer> {
        customers.fetch(id: id)
    }

    /// Sends a new customer to the shop, or keeps it here with its create waiting when the shop
    /// cannot be reached.
    ///
    /// - Parameter customer: The customer; its `id` and `version` are ignored.
    /// - Returns: A promise of the customer as stored, with its identifier.
    public func createCustomer(_ customer: Customer) -> Promise<Customer> {
        var new = customer
        (new.id, new.version) = (nil, nil)
        return customers.create(new)
    }

    /// Sends the customers' changes that wait, in order, each exactly once.
    ///
    /// - Returns: A promise of what was sent, refused and still waits.
    public func sync() -> Promise<OutboxSyncReport> {
        customers.sync()
    }

    /// Each changed customer's sync state and how many changes wait or were refused.
    ///
    /// - Returns: A promise of the status.
    public func syncStatus() -> Promise<OutboxStatus> {
        customers.status()
    }

    /// Sends a customer's refused or stuck changes again, then syncs.
    ///
    /// - Parameter id: The customer's identifier.
    /// - Returns: A promise of the sync's report; rejected with `notFound` when the customer has
    ///   no such change.
    public func retry(id: String) -> Promise<OutboxSyncReport> {
        let customers = customers
        return customers.retry(id: id).then(on: .inline) { count -> Promise<OutboxSyncReport> in
            guard count > 0 else { throw OrdersStoreError(.updateOrder, .notFound(id: id)) }
            return customers.sync()
        }
    }

    /// Drops a customer's held change and those behind it, and undoes them here: a customer the
    /// shop never had goes, and the orders naming it are held with the reason (see
    /// ``FallbackOrdersStore/ordersNaming(customer:)``) until each is discarded or changed.
    ///
    /// - Parameter id: The customer's identifier.
    /// - Returns: A promise of the changes dropped; rejected with `notFound` when the customer
    ///   has no held change.
    public func discard(id: String) -> Promise<[OutboxEntry]> {
        customers.discard(id: id).map(on: .inline) { entries in
            guard !entries.isEmpty else { throw OrdersStoreError(.deleteOrder, .notFound(id: id)) }
            return entries
        }
    }
}

extension OfflineCollection where Resource == Order {
    /// The orders naming their customer (``Order/customerID``): an order waits for its customer's
    /// create, and is sent naming the shop's identifier.
    var namingCustomers: OfflineCollection {
        referencing(.field(\.customerID, to: CustomersStore.collection))
    }
}
