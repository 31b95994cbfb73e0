/// Waits for every promise an iterator makes to settle, however each settles, making at most
/// `limit` of them wait at once: `when(resolved:)` for work that must not all start together.
///
/// Unlike `when(fulfilled:concurrently:)`, a rejection stops nothing: the next promise is asked
/// for as soon as any running one settles, and every outcome is kept, in the order the iterator
/// made them.
///
/// ```swift
/// var files = paths.makeIterator()
/// let uploads = AnyIterator { files.next().map(upload) }
/// when(resolved: uploads, concurrently: 2).done { results in ... }
/// ```
///
/// - Parameters:
///   - promises: Makes the promises, one per call to `next()`; `nil` when there are no more. It is
///     called on whichever thread settled the promise before, never two calls at once.
///   - limit: How many promises may be pending at once; a limit below 1 counts as 1 (a guarantee
///     has no error to say it with).
/// - Returns: A guarantee of every outcome, in order; their errors count as handled.
public func when<Promises: IteratorProtocol & SendableMetatype>(
    resolved promises: sending Promises, concurrently limit: Int
) -> Guarantee<[Result<Promises.Element.Value, any Error>]> where Promises.Element: Thenable {
    let outcomes = when(fulfilled: Outcomes(promises), concurrently: max(1, limit))
    // Never runs: every input is a guarantee, the limit is at least 1, and nobody else holds
    // `outcomes` to cancel it.
    return outcomes.recover(on: .inline) { _ in Guarantee.value([]) }
}

/// The promises of an iterator, each as a guarantee of its outcome.
struct Outcomes<Base: IteratorProtocol & SendableMetatype>: IteratorProtocol, SendableMetatype
where Base.Element: Thenable {
    var base: Base

    init(_ base: sending Base) {
        self.base = base
    }

    mutating func next() -> Guarantee<Result<Base.Element.Value, any Error>>? {
        base.next().map { thenable in
            when(resolved: [thenable.asPromise()]).map(on: .inline) { $0[0] }
        }
    }
}
