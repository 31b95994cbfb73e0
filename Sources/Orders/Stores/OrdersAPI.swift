import Foundation
import OfflineKit
public import Promises
public import Services

/// Orders behind the shop's REST API, through `APIClient`: `GET /orders`, `POST /orders`,
/// `GET /orders/{id}`, `PUT /orders/{id}` and `DELETE /orders/{id}`, JSON both ways.
///
/// A 404 becomes `notFound`; a 400 or 422 becomes `invalid`, with the server's field errors when it
/// sends them as `{"errors": [{"field": "email", "message": "..."}]}`; anything else, the network
/// included, becomes `storage` with its `ServiceRequestError`. Orders are checked before they are
/// sent, so an order the API would refuse never leaves the device.
public struct OrdersAPI: OrdersStore {
    /// The client for the shop's API.
    public let client: APIClient

    /// Makes the store.
    ///
    /// - Parameter client: The client for the shop's API.
    public init(client: APIClient) {
        self.client = client
    }

    /// All orders, newest first; orders of one date by identifier, as pages list them.
    ///
    /// - Returns: A promise of the orders.
    public func fetchOrders() -> Promise<[Order]> {
        fetchOrders(ifChangedSince: nil).map(on: .inline) { answer in
            guard case .changed(let orders, _) = answer else { return [] }  // no validators: never 304
            return orders
        }
    }

    /// All orders, newest first, unless unchanged since the answer `validators` describe
    /// (a conditional GET: `ConditionalGet.notModified`, with nothing decoded).
    ///
    /// - Parameter validators: What the copy's answer said of its version; `nil` for none.
    /// - Returns: A promise of the orders and their validators, or that they did not change.
    public func fetchOrders(ifChangedSince validators: CacheValidators?) -> Promise<ConditionalGet<[Order]>> {
        getOrders(ifChangedSince: validators)
            .recover(on: .inline, policy: .allErrors) { throw Self.storeError($0, .fetchOrders, id: "") }
    }

    /// ``fetchOrders(ifChangedSince:)`` with its failure as the client gave it (`APIError`), for
    /// the offline kit to classify.
    func getOrders(ifChangedSince validators: CacheValidators?) -> Promise<ConditionalGet<[Order]>> {
        client.get("orders", as: [Order].self, ifChangedSince: validators)
            .map(on: .inline) { answer -> ConditionalGet<[Order]> in
                guard case .changed(let orders, let validators) = answer else { return .notModified }
                return .changed(OrdersPage.newest(orders), validators: validators)
            }
    }

    /// One order.
    ///
    /// - Parameter id: The order's identifier.
    /// - Returns: A promise of the order, or rejected with `notFound`.
    public func fetchOrder(id: String) -> Promise<Order> {
        getOrder(id: id)
            .recover(on: .inline, policy: .allErrors) { throw Self.storeError($0, .fetchOrder, id: id) }
    }

    /// ``fetchOrder(id:)`` with its failure as the client gave it.
    func getOrder(id: String) -> Promise<Order> {
        client.get(Self.path(of: id), as: Order.self)
    }

    /// Sends a new order; the API gives it its identifier.
    ///
    /// - Parameter order: The order; its `id` and `total` are ignored.
    /// - Returns: A promise of the order as the API stored it.
    public func createOrder(_ order: Order) -> Promise<Order> {
        createOrder(order, idempotencyKey: UUID().uuidString)
    }

    /// Sends a new order with an `Idempotency-Key`, so that sending it again with the same key
    /// (after a timeout, say) does not make a second order.
    ///
    /// - Parameters:
    ///   - order: The order; its `id` and `total` are ignored.
    ///   - idempotencyKey: The key; the same for every attempt at this order.
    /// - Returns: A promise of the order as the API stored it.
    public func createOrder(_ order: Order, idempotencyKey: String) -> Promise<Order> {
        firstly { () -> Promise<Order> in
            try order.validateForStore(.createOrder)
            return sendCreate(order, idempotencyKey: idempotencyKey)
        }
        .recover(on: .inline, policy: .allErrors) { throw Self.storeError($0, .createOrder, id: "") }
    }

    /// The POST of a checked order; its failure as the client gave it (`APIError`), for the
    /// offline kit to classify.
    func sendCreate(_ order: Order, idempotencyKey: String) -> Promise<Order> {
        var draft = order
        draft.id = nil
        draft.total = order.computedTotal
        return client.post(
            "orders", body: draft, as: Order.self, headers: ["Idempotency-Key": idempotencyKey])
    }

    /// Replaces an order.
    ///
    /// - Parameter order: The order, with the `id` of the one to replace.
    /// - Returns: A promise of the order as the API stored it, or rejected with `notFound`.
    public func updateOrder(_ order: Order) -> Promise<Order> {
        updateOrder(order, idempotencyKey: UUID().uuidString)
    }

    /// Replaces an order, with an `Idempotency-Key`, so that the same change sent again (after an
    /// answer that never came) is recognised as a repeat.
    ///
    /// - Parameters:
    ///   - order: The order, with the `id` of the one to replace.
    ///   - idempotencyKey: The key; the same for every attempt at this change.
    /// - Returns: A promise of the order as the API stored it, or rejected with `notFound`.
    public func updateOrder(_ order: Order, idempotencyKey: String) -> Promise<Order> {
        firstly { () -> Promise<Order> in
            try order.validateForStore(.updateOrder)
            return sendUpdate(order, idempotencyKey: idempotencyKey)
        }
        .recover(on: .inline, policy: .allErrors) {
            throw Self.storeError($0, .updateOrder, id: order.id ?? "")
        }
    }

    /// The PUT of a checked order, made on top of the shop's version it was read at (another
    /// change meanwhile is a 412); its failure as the client gave it.
    func sendUpdate(_ order: Order, idempotencyKey: String) -> Promise<Order> {
        var sent = order
        sent.total = order.computedTotal
        return client.put(
            Self.path(of: order.id ?? ""), body: sent, as: Order.self,
            headers: APIClient.writeHeaders(idempotencyKey: idempotencyKey, basedOn: order.version))
    }

    /// Deletes an order.
    ///
    /// - Parameter id: The order's identifier.
    /// - Returns: A promise of the deleted order, or rejected with `notFound`.
    public func deleteOrder(id: String) -> Promise<Order> {
        deleteOrder(id: id, idempotencyKey: UUID().uuidString)
    }

    /// Deletes an order, with an `Idempotency-Key` for the DELETE.
    ///
    /// - Parameters:
    ///   - id: The order's identifier.
    ///   - idempotencyKey: The key; the same for every attempt at this delete.
    /// - Returns: A promise of the deleted order, or rejected with `notFound`.
    public func deleteOrder(id: String, idempotencyKey: String) -> Promise<Order> {
        sendDelete(id: id, idempotencyKey: idempotencyKey, version: nil)
            .recover(on: .inline, policy: .allErrors) { throw Self.storeError($0, .deleteOrder, id: id) }
    }

    /// Deletes an order read at `version` (`If-Match`): a change of it in the shop since is a
    /// conflict, not a silent delete. Without a version, the shop's current one. Its failure as
    /// the client gave it.
    func sendDelete(id: String, idempotencyKey: String, version: String?) -> Promise<Order> {
        let (client, path) = (client, Self.path(of: id))
        return client.get(path, as: Order.self)
            .then(on: .inline) { order in
                client.delete(
                    path,
                    headers: APIClient.writeHeaders(
                        idempotencyKey: idempotencyKey, basedOn: version ?? order.version)
                )
                .map(on: .inline) { order }
            }
    }

    /// Where order `id` is, relative to the API's base: the one place the path is built.
    static func path(of id: String) -> String {
        "orders/\(APIClient.pathSegment(id))"
    }

    private struct FieldErrors: Decodable {
        let errors: [OrderFieldError]
    }

    /// What a failure of the API, or of the offline kit over it, means for an order: the one
    /// place errors become ``OrdersStoreError``s.
    static func storeError(
        _ error: any Error, _ operation: OrdersStoreError.Operation, id: String
    ) -> OrdersStoreError {
        if let error = error as? OrdersStoreError { return error }
        if let conflict = error as? OfflineConflict<Order> {
            return OrdersStoreError(
                operation, .conflict(theirs: conflict.deletedThere ? nil : conflict.theirs))
        }
        // One order (an `id`) kept neither here nor in the API.
        if !id.isEmpty, error as? ServiceRequestError == .noData {
            return OrdersStoreError(operation, .notFound(id: id))
        }
        if case .httpStatus(_, let body) = error as? APIError {
            let failure = FailureClass(error)
            if failure.isConflict {
                return OrdersStoreError(
                    operation, .conflict(theirs: try? APIClient.decode(Order.self, from: Data(body.utf8))))
            }
            if failure.isGone { return OrdersStoreError(operation, .notFound(id: id)) }
            if failure.isInvalid {
                let fields = (try? JSONDecoder().decode(FieldErrors.self, from: Data(body.utf8)))?.errors
                return OrdersStoreError(
                    operation,
                    .invalid(
                        fields ?? [OrderFieldError(field: .items, message: "The shop refused this order.")]))
            }
        }
        return OrdersStoreError(operation, .storage(ServiceRequestError(error)))
    }
}
