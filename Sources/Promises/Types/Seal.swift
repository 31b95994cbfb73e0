/// The only way to settle a pending promise.
///
/// Keep the seal where the work finishes and call exactly one of its methods; the first call
/// settles the promise and later calls are ignored. Dropping every seal of a pending promise (and
/// the promise) is reported through ``PromiseDiagnostics``.
public struct Seal<Value: Sendable>: @unchecked Sendable {
    // `@unchecked Sendable` is sound for the reason `Promise.Representation` is: the storage's
    // state and header are only reached under the lock in its header, and `Value` is `Sendable`.
    /// The pending promise's storage itself, not a ``Promise``: a seal always settles storage, so
    /// copying or dropping one is a single reference count, with no case of its own to look at.
    @usableFromInline
    let storage: PromiseStorage<Value>

    @inlinable
    init(_ storage: PromiseStorage<Value>) {
        self.storage = storage
    }

    /// Fulfills the promise with `value`, unless it already settled.
    ///
    /// - Parameter value: The value the promise's handlers receive.
    @inlinable
    public func fulfill(_ value: Value) {
        storage.settle(.fulfilled(value))
    }

    /// Rejects the promise with `error`, unless it already settled.
    ///
    /// - Parameter error: Why the value will never come.
    @inlinable
    public func reject(_ error: any Error) {
        storage.settle(.rejected(error, handled: false))
    }

    /// Settles the promise with `result`, unless it already settled.
    ///
    /// - Parameter result: The value or the error, typically from a callback API.
    @inlinable
    public func resolve(_ result: Result<Value, any Error>) {
        storage.settle(Resolution(result))
    }

    /// Runs `handler` if the promise is cancelled while pending, so the work behind it can stop
    /// (a network task, a timer).
    ///
    /// Set it before handing the promise out: promises chained to this one before it is set do not
    /// pass their cancellation on. If the promise was already cancelled, `handler` runs at once. It is
    /// released as soon as the promise settles.
    ///
    /// - Parameter handler: Stops the work; it must not block.
    @inlinable
    public func setCancellationHandler(_ handler: @escaping @Sendable () -> Void) {
        Promise(storage: storage).setCancellationHandler(handler)
    }
}

extension Seal where Value == Void {
    /// Fulfills a `Promise<Void>`, unless it already settled.
    @inlinable
    public func fulfill() {
        fulfill(())
    }
}

extension Seal {
    /// Settles the promise from a callback that passes `(value, error)`, as many Foundation and C
    /// APIs do: the error rejects, else the value fulfils; neither rejects with
    /// ``PromiseError/invalidCallingConvention``.
    ///
    /// - Parameters:
    ///   - value: The callback's value, if any.
    ///   - error: The callback's error, if any.
    @inlinable
    public func resolve(_ value: Value?, _ error: (any Error)?) {
        if let error {
            reject(error)
        } else if let value {
            fulfill(value)
        } else {
            reject(PromiseError.invalidCallingConvention)
        }
    }
}

/// The other callback shapes PromiseKit's `Resolver` takes, so that `seal.resolve` can be handed
/// to a callback API as it is.
extension Seal {
    /// Settles the promise from a callback that always passes a value, and an error when it failed:
    /// the error rejects, else the value fulfils.
    ///
    /// - Parameters:
    ///   - value: The callback's value.
    ///   - error: The callback's error, if any.
    @inlinable
    public func resolve(_ value: Value, _ error: (any Error)?) {
        if let error { reject(error) } else { fulfill(value) }
    }

    /// Settles the promise from a callback that passes `(error, value)`: as
    /// ``resolve(_:_:)-(Value?,_)``. Disfavoured, so that `resolve(nil, nil)` stays that one.
    ///
    /// - Parameters:
    ///   - error: The callback's error, if any.
    ///   - value: The callback's value, if any.
    @_disfavoredOverload
    @inlinable
    public func resolve(_ error: (any Error)?, _ value: Value?) {
        resolve(value, error)
    }

    /// Settles the promise with a result of any error type: its failure rejects, its success fulfils.
    ///
    /// - Parameter result: The outcome, such as a callback's `Result<Data, URLError>`.
    @inlinable
    public func resolve<Failure: Error>(_ result: Result<Value, Failure>) {
        resolve(result.mapError { $0 as any Error })
    }
}

extension Seal where Value == Void {
    /// Settles a `Promise<Void>` from a callback that passes only an error: rejected with it, else
    /// fulfilled.
    ///
    /// - Parameter error: The callback's error, if any.
    @inlinable
    public func resolve(_ error: (any Error)?) {
        if let error { reject(error) } else { fulfill(()) }
    }
}
