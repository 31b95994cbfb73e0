public import Foundation
public import OfflineKit
public import Promises
public import Services

/// The changes that wait: sending them, their state, and what the user does with a held one.
extension FallbackOrdersStore {
    /// Brings the shop's changes into the offline copy, sending nothing: a conditional listing (a
    /// `304` writes the copy's date alone, and reads nothing). Orders with changes waiting here keep this device's values. For a
    /// `SyncScheduler`'s `refresh(every:_:)` while the list is watched.
    ///
    /// - Returns: A promise fulfilled once the copy holds the shop's orders.
    public func refresh() -> Promise<Void> {
        let api = api
        return orders.refresh { api.getOrders(ifChangedSince: $0) }.asVoid().failing(as: .fetchOrders, id: "")
    }

    /// The collections a `LiveRefresh` keeps current for the orders' screens, by the names the
    /// shop's events give them: the orders (through the same conditional listing or feed as
    /// ``refresh()``) and the customers. Each is refreshed after the changes that wait are sent
    /// (joining a sync under way): never beside a sync that creates what the refresh may bring.
    public var liveTargets: [LiveRefresh.Target] {
        let (api, orders, store) = (api, orders, self)
        return [
            LiveRefresh.Target(name: "orders") {
                store.syncAll().asVoid().recover(on: .inline, policy: .allErrors) { _ in }
                    .then(on: .inline) { orders.refresh { api.getOrders(ifChangedSince: $0) } }
            },
            .collection(customers.customers),
        ]
    }

    /// Sends the changes that wait, in order, each exactly once; see `Outbox`. (Orders that an
    /// earlier version kept here without an outbox entry were queued once, when the file's
    /// `orders` schema moved to version 5.)
    ///
    /// - Returns: A promise of what was sent, what the shop refused and why, and what still waits.
    public func sync() -> Promise<OutboxSyncReport> {
        orders.sync()
    }

    /// Sends every change that waits in the database: the files attached to orders, then the
    /// customers', then the orders' (an order waits for its customer's create and its files'
    /// uploads in any order; this one sends all in one go).
    ///
    /// - Returns: A promise of the three syncs' reports, combined.
    public func syncAll() -> Promise<OutboxSyncReport> {
        SyncedCollections.sync([attachments, customers.customers, orders])
    }

    /// The same store, handing the orders' and customers' changes to a transfer service through
    /// `spool` at ``handOff()``, and recording its answers at each sync (files attached to orders
    /// are uploaded by a sync itself: an upload takes several requests).
    ///
    /// - Parameter spool: Where the requests and their answers are kept.
    /// - Returns: The store.
    public func handingOff(to spool: TransferSpool) -> FallbackOrdersStore {
        var store = self
        store.orders = orders.handingOff(to: spool)
        store.customers.customers = customers.customers.handingOff(to: spool)
        return store
    }

    /// Hands the changes that may go now to the transfer service (``handingOff(to:)``) without a
    /// request of its own: the customers', then the orders'. An order naming a customer whose
    /// create is handed off waits for a sync after the answer; so does one with a file to upload.
    ///
    /// - Returns: A promise of the two reports, combined; `handedOff` lists what the service has.
    public func handOff() -> Promise<OutboxSyncReport> {
        let orders = orders
        return customers.customers.handOff().then(on: .inline) { customers in
            orders.handOff().map(on: .inline) { OutboxSyncReport(combining: [customers, $0]) }
        }
    }

    /// Attaches the file at `source` to order `id`: kept on this device at once (offline too), and
    /// uploaded before the order's change, which then names the shop's upload.
    ///
    /// - Parameters:
    ///   - source: The user's file; only read.
    ///   - id: The order's identifier.
    ///   - contentType: The file's media type, such as `application/pdf`.
    /// - Returns: A promise of the order as kept, with the attachment; rejected with
    ///   `KeptFiles.Failure` when the file cannot be read or kept (nothing is attached then).
    public func attach(fileAt source: URL, to id: String, contentType: String) -> Promise<Order> {
        let (orders, attachments) = (orders, attachments)
        return orders.fetch(id: id).failing(as: .fetchOrder, id: id).then(on: .inline) { _ in
            attachments.attach(fileAt: source, contentType: contentType)
        }.then(on: .inline) { attachment in
            orders.update(id: id) { $0.attachments.append(attachment) }.failing(as: .updateOrder, id: id)
        }
    }

    /// Where the upload of each file attached to `order` stands, in its order.
    ///
    /// - Parameter order: The order.
    /// - Returns: A promise of each attachment's state.
    public func attachmentStates(of order: Order) -> Promise<[OfflineAttachmentState]> {
        when(fulfilled: order.attachments.map { attachments.state(of: $0.id) })
    }

    /// The customer whose create holds an order's changes back, and where that create stands
    /// (refused, say): `nil` when the order waits for no customer.
    ///
    /// - Parameter id: The order's identifier.
    /// - Returns: A promise of the customer's identifier and state, if one holds the order.
    public func waitingCustomer(of id: String) -> Promise<OfflineParentWait?> {
        orders.waitingParent(of: id)
    }

    /// Each changed order's `SyncState` and how many changes wait or were refused.
    ///
    /// - Returns: A promise of the status.
    public func syncStatus() -> Promise<OutboxStatus> {
        orders.status()
    }

    /// Sends an order's refused changes again, then syncs.
    ///
    /// - Parameter id: The order's identifier.
    /// - Returns: A promise of the sync's report; rejected with `notFound` when the order has no
    ///   refused change.
    public func retry(id: String) -> Promise<OutboxSyncReport> {
        let store = self
        return orders.retry(id: id).then(on: .inline) { count -> Promise<OutboxSyncReport> in
            guard count > 0 else { throw OrdersStoreError(.updateOrder, .notFound(id: id)) }
            return store.sync()
        }
    }

    /// Drops an order's refused change and those behind it, and undoes them here: an order the
    /// shop never had goes, one it has comes back as the shop has it at the next listing.
    ///
    /// - Parameter id: The order's identifier.
    /// - Returns: A promise of the changes dropped; rejected with `notFound` when the order has no
    ///   refused change.
    public func discard(id: String) -> Promise<[OutboxEntry]> {
        orders.discard(id: id)
            .map(on: .inline) { entries in
                guard !entries.isEmpty else { throw OrdersStoreError(.deleteOrder, .notFound(id: id)) }
                return entries
            }
    }

    /// Settles an order's conflict with the shop (its change met another device's, in the same
    /// fields, or the shop deleted the order): keeping this device's change sends it again over
    /// the shop's version (or creates the order again); keeping the shop's drops the changes here
    /// and shows the shop's copy. Then syncs.
    ///
    /// - Parameters:
    ///   - id: The order's identifier.
    ///   - keeping: Which side to keep.
    /// - Returns: A promise of the sync's report; rejected with `notFound` when the order has no
    ///   conflict, and, keeping mine after a `412` that came without the shop's order, with the
    ///   error of reading it (offline, say) while nothing changes.
    public func resolve(id: String, keeping: Outbox.Keeping) -> Promise<OutboxSyncReport> {
        let store = self
        return orders.resolve(id: id, keeping: keeping).then(on: .inline) {
            count -> Promise<OutboxSyncReport> in
            guard count > 0 else { throw OrdersStoreError(.updateOrder, .notFound(id: id)) }
            return store.sync()
        }
        .failing(as: .updateOrder, id: id)
    }
}

/// Signed-in shops: whose changes wait, and erasing an account's orders at its sign-out.
extension FallbackOrdersStore {
    /// The account whose orders (or customers) this device keeps, or `nil` when none does: the
    /// one a signed-out screen names ("This device keeps amy's orders").
    ///
    /// - Returns: A promise of the account.
    public func owner() -> Promise<String?> {
        let customers = customers.customers
        return orders.owner().then(on: .inline) { owner -> Promise<String?> in
            if let owner { return .value(owner) }
            return customers.owner()
        }
    }

    /// What each of this store's outboxes holds (files, customers, orders, in the order a sync
    /// sends them), with the kept files and each copy, for a status screen or a support bundle:
    /// see `OutboxDiagnostics`.
    ///
    /// - Returns: A promise of the snapshots.
    public func diagnostics() -> Promise<[OutboxDiagnostics]> {
        when(fulfilled: [attachments.diagnostics(), customers.customers.diagnostics(), orders.diagnostics()])
    }

    /// A budget of `bytes` for what the store's database keeps of the shop: its orders (their own
    /// tables), its customers and the orders' files, those used longest ago let go of first,
    /// never an order or a customer that waits to be sent, one an order names, a pinned one, or a
    /// file not uploaded yet (`StorageBudget`).
    ///
    /// - Parameter bytes: The most the copy may take, in bytes.
    /// - Returns: The budget, to enforce once or after every change.
    public func storageBudget(bytes: Int) -> StorageBudget {
        StorageBudget(database: cache.storage.tables.database, bytes: bytes, covering: [cache.storage])
            .including(attachments.files)
    }

    /// The accounts whose changes wait here, orders' and customers' together, with how many each.
    ///
    /// - Returns: A promise of the counts.
    public func unsentChangesByAccount() -> Promise<[String: Int]> {
        let customers = customers.customers
        return orders.unsentChangesByAccount().then(on: .inline) { orders in
            customers.unsentChangesByAccount().map(on: .inline) { orders.merging($0, uniquingKeysWith: +) }
        }
    }

    /// Erases every collection this store keeps for `account` (the orders, then the customers:
    /// copies, waiting changes, owners and the map of the shop's identifiers) from this device,
    /// leaving no trace in the file (see `OfflineCollection.erase(account:)`).
    ///
    /// - Parameter account: The account signing out.
    /// - Returns: A promise of how many waiting changes were dropped, orders' and customers'.
    public func erase(account: String) -> Promise<Int> {
        let (customers, attachments) = (customers.customers, attachments)
        return orders.erase(account: account).then(on: .inline) { orders in
            customers.erase(account: account).map(on: .inline) { orders + $0 }
        }.then(on: .inline) { dropped in
            attachments.erase(account: account).map(on: .inline) { dropped + $0 }
        }
    }

    /// The orders whose changes wait for customer `customer`'s create (queued, refused or
    /// discarded): what discarding a refused customer leaves held.
    ///
    /// - Parameter customer: The customer's identifier.
    /// - Returns: A promise of the orders' identifiers, sorted.
    public func ordersNaming(customer: String) -> Promise<[String]> {
        let orders = orders
        return orders.status().then(on: .inline) { status -> Promise<[String]> in
            let waits = status.states.keys.sorted().map { id in
                orders.waitingParent(of: id).map(on: .inline) { $0?.id == customer ? id : nil }
            }
            return when(fulfilled: waits).map(on: .inline) { $0.compactMap { $0 } }
        }
    }
}
