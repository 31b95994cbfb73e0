/// A value that arrives later and cannot fail.
///
/// A guarantee is what remains of a promise once every error was dealt with (`recover`), or work
/// that has no way to fail (`after`, `when(resolved:)`). Its handlers get the value, never an error,
/// and it cannot be cancelled. Queues work as for ``Promise``: without `on:` handlers run on the main
/// actor.
public struct Guarantee<Value: Sendable>: Sendable {
    /// Never rejected: only the operators of this module settle it, always with a value, and it never
    /// gets a cancellation handler.
    @usableFromInline
    let promise: Promise<Value>

    @inlinable
    init(_ promise: Promise<Value>) {
        self.promise = promise
    }

    /// Makes a pending guarantee and hands `body` the function that fulfills it.
    ///
    /// - Parameter body: Starts the work and calls `resolve` once with its value; later calls are
    ///   ignored.
    @inlinable
    public init(_ body: (_ resolve: @escaping @Sendable (Value) -> Void) -> Void) {
        let (guarantee, resolve) = Self.pending()
        self = guarantee
        body(resolve)
    }

    /// Makes a guarantee already fulfilled with `value`.
    ///
    /// - Parameter value: The value.
    /// - Returns: A fulfilled guarantee.
    @inlinable
    public static func value(_ value: Value) -> Guarantee<Value> {
        Guarantee(.value(value))
    }

    /// Makes a pending guarantee and the function that fulfills it.
    ///
    /// - Returns: The guarantee to hand out and the function to keep.
    @inlinable
    public static func pending() -> (
        guarantee: Guarantee<Value>, resolve: @Sendable (Value) -> Void
    ) {
        let (promise, seal) = Promise<Value>.pending(abandonment: .guarantee)
        return (Guarantee(promise), { seal.fulfill($0) })
    }

    /// True until the guarantee is fulfilled.
    @inlinable
    public var isPending: Bool { promise.isPending }

    /// The value, or `nil` while pending.
    @inlinable
    public var resolvedValue: Value? {
        try? promise.result?.get()
    }

    /// The same outcome as a promise, to chain with operators that can fail.
    ///
    /// The promise is a view of its own: cancelling it (or a chain built on it) rejects that view,
    /// never the guarantee, which others may be waiting on.
    ///
    /// - Returns: A promise fulfilled with this guarantee's value.
    @inlinable
    public func asPromise() -> Promise<Value> {
        if case .fulfilled = promise.representation { return promise }  // nothing can change it
        return promise.derive(linkingCancellation: false) { next in { next.settle($0) } }
    }
}
