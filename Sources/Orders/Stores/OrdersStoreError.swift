public import Promises
public import Services

/// Which store operation failed, and why.
public struct OrdersStoreError: Error, Equatable, Sendable, CustomStringConvertible,
    ServiceRequestErrorConvertible
{
    /// The store operations.
    ///
    /// More cases may be added in a later version: a `switch` over it needs a `default`.
    public enum Operation: String, Sendable {
        /// Fetching all orders.
        case fetchOrders
        /// Fetching one order.
        case fetchOrder
        /// Creating an order.
        case createOrder
        /// Updating an order.
        case updateOrder
        /// Deleting an order.
        case deleteOrder
    }

    /// Why an operation failed.
    ///
    /// More cases may be added in a later version: a `switch` over it needs a `default`.
    public enum Reason: Equatable, Sendable {
        /// There is no order with this identifier.
        case notFound(id: String)
        /// The order was refused: one error per wrong field.
        case invalid([OrderFieldError])
        /// The storage behind the store failed: the database, or the network and the API.
        case storage(ServiceRequestError)
        /// Another device changed (or deleted: `theirs` is `nil`) the order since this copy of it
        /// was read: nothing was overwritten. Show the shop's copy, or let the user choose.
        case conflict(theirs: Order?)
    }

    /// The operation that failed.
    public let operation: Operation
    /// Why.
    public let reason: Reason

    /// Makes an error.
    ///
    /// - Parameters:
    ///   - operation: The operation that failed.
    ///   - reason: Why.
    public init(_ operation: Operation, _ reason: Reason) {
        self.operation = operation
        self.reason = reason
    }

    /// One line: the operation and the reason.
    public var description: String {
        switch reason {
        case .notFound(let id): "\(operation.rawValue): no order with id \(id)"
        case .invalid(let errors): "\(operation.rawValue): \(errors.map(\.message).joined(separator: " "))"
        case .storage(let error): "\(operation.rawValue): \(error.userMessage)"
        case .conflict: "\(operation.rawValue): changed in the shop meanwhile"
        }
    }

    /// The service error behind a storage failure; `noData` for a missing order; `unknownError`
    /// for a refused one.
    public var serviceRequestError: ServiceRequestError {
        switch reason {
        case .notFound: .noData
        case .invalid: .unknownError
        case .storage(let error): error
        case .conflict: .httpStatus(412)
        }
    }

    /// A sentence for the user.
    public var userMessage: String {
        switch reason {
        case .notFound: "This order no longer exists."
        case .invalid(let errors): errors.map(\.message).joined(separator: " ")
        case .storage(let error): error.userMessage
        case .conflict(nil): "This order was deleted in the shop meanwhile; nothing was changed."
        case .conflict:
            "This order was changed in the shop meanwhile; nothing was overwritten. Look at it again."
        }
    }

    /// `error` as an ``OrdersStoreError`` of `operation`: itself if it already is one, otherwise a
    /// storage failure.
    static func wrapping(_ error: any Error, _ operation: Operation) -> OrdersStoreError {
        (error as? OrdersStoreError) ?? OrdersStoreError(operation, .storage(ServiceRequestError(error)))
    }
}

extension Promise {
    /// Rejects with an ``OrdersStoreError`` of `operation` whatever the store failed with.
    func failing(as operation: OrdersStoreError.Operation) -> Promise<Value> {
        recover(on: .inline, policy: .allErrors) { error -> Promise<Value> in
            throw OrdersStoreError.wrapping(error, operation)
        }
    }
}

extension OrdersStoreError: CancellableError {
    /// True when the storage's request was cancelled, so that `catch` treats it as a cancellation.
    public var isCancelled: Bool {
        if case .storage(let reason) = reason { return reason.isCancelled }
        return false
    }
}
