/// Waits for every guarantee of an array and gives their values in order, as PromiseKit spells it:
/// `when(guarantees:)`, the same as `when(fulfilled:)` over guarantees. It cannot fail.
///
/// - Parameter guarantees: The guarantees to wait for.
/// - Returns: A guarantee of the values, in order.
@inlinable
public func when<Value>(guarantees: [Guarantee<Value>]) -> Guarantee<[Value]> {
    when(fulfilled: guarantees)
}

/// Waits for every guarantee of nothing, given one by one without a label: `when(saved, shown)`,
/// as PromiseKit writes it.
///
/// - Parameter guarantees: The guarantees to wait for.
/// - Returns: A guarantee fulfilled once all are.
@inlinable
public func when(_ guarantees: Guarantee<Void>...) -> Guarantee<Void> {
    when(guarantees: guarantees)
}

/// Waits for every guarantee, given one by one without a label, and gives their values in order:
/// `when(first, second, third)` is a `Guarantee<[Int]>` for three `Guarantee<Int>`, as in PromiseKit.
///
/// - Parameter guarantees: The guarantees to wait for.
/// - Returns: A guarantee of the values, in order.
@inlinable
public func when<Value>(_ guarantees: Guarantee<Value>...) -> Guarantee<[Value]> {
    when(fulfilled: guarantees)
}

/// Waits for every guarantee of nothing, given one by one under `fulfilled:`, as PromiseKit's
/// `when(fulfilled: g1, g2)` does for any thenables of nothing: a promise of nothing, not of a
/// tuple of nothings.
///
/// - Parameters:
///   - first: The first guarantee to wait for.
///   - others: The others.
/// - Returns: A promise fulfilled once all are.
@inlinable
public func when(fulfilled first: Guarantee<Void>, _ others: Guarantee<Void>...) -> Promise<Void> {
    when(guarantees: [first] + others).asPromise()
}
