/// Waits for every promise to be fulfilled.
///
/// - Parameter promises: The promises to wait for; an empty array fulfills at once.
/// - Returns: A promise of all the values in the order of `promises`, or rejected with the first
///   error among them. Cancelling it cancels the inputs that can be cancelled.
@inlinable
public func when<Value>(fulfilled promises: [Promise<Value>]) -> Promise<[Value]> {
    allFulfilled(promises)
}

/// The values of every promise, in order, or the first error: what both array forms of
/// `when(fulfilled:)` wait for.
@inlinable
func allFulfilled<Value>(_ promises: [Promise<Value>]) -> Promise<[Value]> {
    gather(promises) { resolution, countdown, index, all in
        switch resolution {
        case .fulfilled(let value):
            if let values = countdown.record(value, at: index) { all.settle(.fulfilled(values)) }
        case .rejected(let error, let handled):
            all.settle(.rejected(error, handled: handled))
        }
    }
}

/// Waits for every promise to be fulfilled and gives their values as a tuple.
///
/// `when(fulfilled: user, settings)` reads like the array form but keeps each value's type; a
/// guarantee may stand among them (`when(fulfilled: promise, guarantee)`).
///
/// - Parameter thenables: The promises and guarantees to wait for.
/// - Returns: A promise of the values in order, or rejected with the first error among them.
@inlinable
public func when<each Waited: Thenable>(
    fulfilled thenables: repeat each Waited
) -> Promise<(repeat (each Waited).Value)> {
    whenFulfilled(repeat (each thenables).asPromise())
}

/// The tuple form of `when(fulfilled:)`, over promises.
@inlinable
func whenFulfilled<each Value: Sendable>(
    _ promises: repeat Promise<each Value>
) -> Promise<(repeat each Value)> {
    var all: [Promise<Void>] = []
    for promise in repeat each promises {
        all.append(promise.asVoid())
    }
    return when(fulfilled: all).map(on: .inline) { _ in
        (repeat try (each promises).fulfilledValue())
    }
}

/// Waits for every promise to settle, however it settles.
///
/// - Parameter promises: The promises to wait for; an empty array fulfills at once.
/// - Returns: A guarantee of every outcome, in the order of `promises`; their errors count as
///   handled.
@inlinable
public func when<Value>(
    resolved promises: [Promise<Value>]
) -> Guarantee<[Result<Value, any Error>]> {
    let all = gather(promises, linkingCancellation: false) { resolution, countdown, index, all in
        if let results = countdown.record(resolution.result, at: index) {
            all.settle(.fulfilled(results))
        }
    }
    return Guarantee(all)
}

/// The shared part of the `when` functions: subscribes to every input with `react`, and passes a
/// cancellation of the result on to the inputs that can be cancelled.
@inlinable
func gather<Value, Element>(
    _ promises: [Promise<Value>],
    linkingCancellation: Bool = true,
    _ react:
        @escaping @Sendable (
            Resolution<Value>, Countdown<Element>, Int, Promise<[Element]>
        ) -> Void
) -> Promise<[Element]> {
    guard !promises.isEmpty else { return .value([]) }
    let all = Promise<[Element]>.derived()
    let countdown = Countdown<Element>(count: promises.count)
    let gathering = Gathering<Value> { resolution, index in react(resolution, countdown, index, all) }
    let cancellable = linkingCancellation ? UpstreamPromises(capacity: promises.count) : nil
    for index in promises.indices where promises[index].subscribe(.member(gathering, index: index)) {
        cancellable?.append(promises[index])
    }
    if let cancellable {
        all.cancelsInputs(cancellable)
    }
    return all
}

extension Promise {
    /// The value of a promise known to have settled, or the error it settled with.
    @inlinable
    func fulfilledValue() throws -> Value {
        guard let result else { preconditionFailure("\(Self.self) read before it settled") }
        return try result.get()
    }
}

/// Waits for every promise of nothing to be fulfilled, as PromiseKit's `when(fulfilled:)` over
/// `Promise<Void>` does.
///
/// - Parameter promises: The promises to wait for.
/// - Returns: A promise fulfilled once all are, or rejected with the first error among them.
@inlinable
public func when(fulfilled promises: [Promise<Void>]) -> Promise<Void> {
    allFulfilled(promises).asVoid()
}

/// Waits for every promise of nothing to be fulfilled, given one by one, as PromiseKit's
/// `when(fulfilled: p1, p2)` over `Promise<Void>` does: a promise of nothing, not of a tuple of
/// nothings.
///
/// - Parameters:
///   - first: The first promise to wait for.
///   - others: The others.
/// - Returns: A promise fulfilled once all are, or rejected with the first error among them.
@inlinable
public func when(fulfilled first: Promise<Void>, _ others: Promise<Void>...) -> Promise<Void> {
    when(fulfilled: [first] + others)
}

/// Waits for every promise to settle, however it settles: the variadic form of
/// `when(resolved:)`.
///
/// - Parameters:
///   - first: The first promise to wait for.
///   - others: The others.
/// - Returns: A guarantee of every outcome, in order.
@inlinable
public func when<Value>(
    resolved first: Promise<Value>, _ others: Promise<Value>...
) -> Guarantee<[Result<Value, any Error>]> {
    when(resolved: [first] + others)
}

/// Waits for every guarantee and gives their values in order; it cannot fail.
///
/// - Parameter guarantees: The guarantees to wait for.
/// - Returns: A guarantee of the values, in order.
@inlinable
public func when<Value>(fulfilled guarantees: [Guarantee<Value>]) -> Guarantee<[Value]> {
    Guarantee(
        gather(guarantees.map(\.promise), linkingCancellation: false) { resolution, countdown, index, all in
            if case .fulfilled(let value) = resolution, let values = countdown.record(value, at: index) {
                all.settle(.fulfilled(values))
            }
        })
}

/// Waits for every guarantee of nothing: what PromiseKit calls `when(guarantees:)`.
///
/// - Parameter guarantees: The guarantees to wait for.
/// - Returns: A guarantee fulfilled once all are.
@inlinable
public func when(guarantees: [Guarantee<Void>]) -> Guarantee<Void> {
    when(fulfilled: guarantees).map(on: .inline) { _ in () }
}

/// Waits for every guarantee of nothing, given one by one.
///
/// - Parameter guarantees: The guarantees to wait for.
/// - Returns: A guarantee fulfilled once all are.
@inlinable
public func when(guarantees: Guarantee<Void>...) -> Guarantee<Void> {
    when(guarantees: guarantees)
}

/// Waits for every guarantee and gives their values as a tuple: `when(guarantees: name, count)`
/// is a `Guarantee<(String, Int)>`. It cannot fail.
///
/// - Parameter guarantees: The guarantees to wait for.
/// - Returns: A guarantee of the values, in order.
@inlinable
public func when<each Value: Sendable>(
    guarantees: repeat Guarantee<each Value>
) -> Guarantee<(repeat each Value)> {
    // The promise `whenFulfilled` makes is held by nobody else, and every input is a guarantee:
    // nothing can reject it.
    Guarantee(whenFulfilled(repeat (each guarantees).asPromise()))
}
