/// Settles like the first of the promises to settle, fulfilled or rejected.
///
/// The others keep running; their outcomes are ignored.
///
/// - Parameter promises: The competitors; an empty array rejects with ``PromiseError/emptyRace``.
/// - Returns: A promise that settles like the first to settle. Cancelling it cancels the inputs
///   that can be cancelled.
@inlinable
public func race<Value>(_ promises: [Promise<Value>]) -> Promise<Value> {
    guard !promises.isEmpty else { return Promise(error: PromiseError.emptyRace) }
    let winner = Promise<Value>.derived()
    let cancellable = UpstreamPromises(capacity: promises.count)
    for promise in promises where promise.subscribe({ winner.settle($0) }) {
        cancellable.append(promise)
    }
    winner.cancelsInputs(cancellable)
    return winner
}

/// Settles like the first of the promises to settle, fulfilled or rejected.
///
/// - Parameters:
///   - first: A competitor.
///   - others: More competitors.
/// - Returns: A promise that settles like the first to settle.
@inlinable
public func race<Value>(_ first: Promise<Value>, _ others: Promise<Value>...) -> Promise<Value> {
    race([first] + others)
}

/// The first guarantee to be fulfilled, given one by one: `race(g1, g2)`.
///
/// - Parameters:
///   - first: The first guarantee.
///   - others: The others.
/// - Returns: A guarantee of the winner's value.
@inlinable
public func race<Value>(_ first: Guarantee<Value>, _ others: Guarantee<Value>...) -> Guarantee<Value> {
    race([first] + others)
}

/// The first promise to be fulfilled, passing over the ones that reject: it rejects only when
/// every promise did, with the last error (with ``PromiseError/emptyRace`` when given none).
///
/// PromiseKit rejects with a "no winner" error instead. The last error is kept here because it
/// says why: a presenter that shows "no network" for the last mirror it tried shows the truth,
/// where "no winner" would have to be explained.
///
/// Cancelling the result cancels the promises still running.
///
/// - Parameter promises: The promises to race.
/// - Returns: A promise of the first value.
@inlinable
public func race<Value>(fulfilled promises: [Promise<Value>]) -> Promise<Value> {
    guard !promises.isEmpty else { return Promise(error: PromiseError.emptyRace) }
    let winner = Promise<Value>.derived()
    let rejections = Countdown<Void>(count: promises.count)
    let cancellable = UpstreamPromises(capacity: promises.count)
    for (index, promise) in promises.enumerated() {
        let linked = promise.subscribe { resolution in
            switch resolution {
            case .fulfilled:
                winner.settle(resolution)
            case .rejected(let error, let handled):
                if rejections.record((), at: index) != nil {
                    winner.settle(.rejected(error, handled: handled))
                }
            }
        }
        if linked { cancellable.append(promise) }
    }
    winner.cancelsInputs(cancellable)
    return winner
}

/// The first guarantee to be fulfilled, given as an array: `race(guarantees)`.
///
/// A guarantee cannot fail, so there must be one to win: an empty array is a programming error
/// and stops the program (`race(g1, g2)` cannot be called with none).
///
/// - Parameter guarantees: The competitors; at least one.
/// - Returns: A guarantee of the winner's value.
@inlinable
public func race<Value>(_ guarantees: [Guarantee<Value>]) -> Guarantee<Value> {
    precondition(!guarantees.isEmpty, "race needs at least one guarantee: with none, nothing can win")
    let winner = Promise<Value>.derived()
    for guarantee in guarantees {
        guarantee.promise.subscribe { winner.settle($0) }
    }
    return Guarantee(winner)
}
