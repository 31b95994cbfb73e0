/// What `when` and the other combinators accept: a ``Promise`` or a ``Guarantee``, so that a
/// guarantee goes wherever a promise goes.
///
/// It is a constraint on generic parameters (`when(fulfilled: promise, guarantee)` keeps each
/// argument's own type), never a box: no value is ever stored as `any Thenable`.
public protocol Thenable<Value>: Sendable {
    /// What the promise or guarantee is fulfilled with.
    associatedtype Value: Sendable

    /// The same outcome as a promise: a promise itself, or a guarantee's promise view (cancelling
    /// that view never rejects the guarantee).
    ///
    /// - Returns: The promise.
    func asPromise() -> Promise<Value>
}

extension Promise: Thenable {
    /// The promise itself.
    ///
    /// - Returns: This promise.
    @inlinable
    public func asPromise() -> Promise<Value> {
        self
    }
}

extension Guarantee: Thenable {}
