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
    var cancellable: [Promise<Value>] = []
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
