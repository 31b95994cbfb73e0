/// Waits for every promise an iterator makes, making at most `limit` of them wait at once: the
/// next promise is asked for only when one of the running ones is fulfilled.
///
/// Use it for work that must not all start together, such as a thousand uploads two at a time:
///
/// ```swift
/// var files = paths.makeIterator()
/// let uploads = AnyIterator { files.next().map(upload) }
/// when(fulfilled: uploads, concurrently: 2)
/// ```
///
/// The iterator must make the promise when asked (an array of promises made already runs them all
/// at once, whatever `limit` says). On the first rejection the result rejects with that error and
/// no more promises are asked for; cancelling the result does the same and cancels the running
/// ones that can be cancelled.
///
/// - Parameters:
///   - promises: Makes the promises, one per call to `next()`; `nil` when there are no more. It is
///     called on whichever thread fulfilled the promise before, never two calls at once.
///   - limit: How many promises may be pending at once; below 1 rejects with
///     ``PromiseError/invalidConcurrency``.
/// - Returns: A promise of every value, in the order the iterator made them.
public func when<Promises: IteratorProtocol & SendableMetatype>(
    fulfilled promises: sending Promises, concurrently limit: Int
) -> Promise<[Promises.Element.Value]> where Promises.Element: Thenable {
    guard limit > 0 else { return Promise(error: PromiseError.invalidConcurrency) }
    let run = ConcurrentWhen(promises, limit: limit)
    run.pull()
    return run.result
}

/// The state of one `when(fulfilled:concurrently:)`: the iterator, the values so far, and how many
/// promises are running.
final class ConcurrentWhen<Promises: IteratorProtocol & SendableMetatype>: @unchecked Sendable
where Promises.Element: Thenable {
    // `@unchecked Sendable` is sound: `source` is the only state not guarded by `progress`'s lock,
    // and it is only touched inside `progress.withLock`, so never by two threads at once. It came in
    // as `sending`, so nobody outside holds it.
    typealias Value = Promises.Element.Value

    struct Progress: Sendable {
        var values: [Value?] = []
        var exhausted = false
        var finished = false
        /// Set while a thread is in `pull()`; a second caller leaves its work to that thread.
        var pulling = false
        var pullAgain = false
        /// The running promises, by position: how many run, and what to cancel when the result is.
        var inFlight: [Int: Promise<Value>] = [:]
    }

    private var source: Promises
    private let limit: Int
    private let progress = Locked(Progress())
    let result = Promise<[Value]>.derived()

    init(_ source: sending Promises, limit: Int) {
        self.source = source
        self.limit = limit
        result.setCancellationHandler { [weak self] in self?.cancelRunning() }
    }

    /// Starts promises until `limit` run, the iterator is done, or the result settled. Runs on one
    /// thread at a time: a call made while another thread pulls (or from inside a pull, when a
    /// promise was fulfilled already) asks that pull to go round once more, so the stack does not
    /// grow with the number of promises.
    func pull() {
        let owns = progress.withLock { progress -> Bool in
            guard !progress.pulling else {
                progress.pullAgain = true
                return false
            }
            progress.pulling = true
            return true
        }
        guard owns else { return }
        while let (index, promise) = nextToStart() {
            promise.subscribe { [self] resolution in receive(resolution, at: index) }
        }
    }

    /// The next promise to start and its position, or `nil` when nothing more may start now; then
    /// this thread stops pulling.
    private func nextToStart() -> (Int, Promise<Value>)? {
        let (next, finishedValues) = progress.withLock { progress -> ((Int, Promise<Value>)?, [Value]?) in
            while true {
                if !progress.finished, !progress.exhausted, progress.inFlight.count < limit {
                    if let made = source.next() {
                        let promise = made.asPromise()
                        let index = progress.values.count
                        progress.values.append(nil)
                        progress.inFlight[index] = promise
                        return ((index, promise), nil)
                    }
                    progress.exhausted = true
                }
                if progress.pullAgain {
                    progress.pullAgain = false
                    continue
                }
                progress.pulling = false
                guard progress.exhausted, progress.inFlight.isEmpty, !progress.finished else {
                    return (nil, nil)
                }
                progress.finished = true
                return (nil, progress.values.compactMap { $0 })
            }
        }
        if let finishedValues { result.settle(.fulfilled(finishedValues)) }
        return next
    }

    private func receive(_ resolution: Resolution<Value>, at index: Int) {
        switch resolution {
        case .fulfilled(let value):
            progress.withLock { progress in
                progress.values[index] = value
                progress.inFlight[index] = nil
            }
            pull()
        case .rejected(let error, let handled):
            let first = progress.withLock { progress -> Bool in
                progress.inFlight[index] = nil
                defer { progress.finished = true }
                return !progress.finished
            }
            if first { result.settle(.rejected(error, handled: handled)) }
        }
    }

    private func cancelRunning() {
        let running = progress.withLock { progress -> [Promise<Value>] in
            progress.finished = true
            defer { progress.inFlight = [:] }
            return Array(progress.inFlight.values)
        }
        for promise in running { promise.cancelIfCancellable() }
    }
}
