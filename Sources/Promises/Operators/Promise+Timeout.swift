extension Promise {
    /// Gives up waiting after `seconds`: rejects with ``PromiseError/timedOut`` unless this promise
    /// settles first.
    ///
    /// When time runs out, this promise is cancelled if that stops its work (see ``cancel()``).
    /// Whichever side loses is released at once: the timer when the promise settles first, the
    /// promise's handlers when the timer fires first.
    ///
    /// - Parameter seconds: How long to wait.
    /// - Returns: A promise that settles like this one, or rejects with `timedOut`.
    public func timeout(seconds: Double) -> Promise<Value> {
        let next = Promise<Value>.derived()
        let timer = ScheduledWork(after: seconds) {
            next.settle(.rejected(PromiseError.timedOut, handled: false))
            self.cancelIfCancellable()
        }
        let cancellable = subscribe { resolution in
            timer.cancel()
            next.settle(resolution)
        }
        // This promise is held weakly, as `cancelsUpstream` holds it: it holds `next` through the
        // handler above.
        let upstream = cancellable ? UpstreamPromise(self) : nil
        next.setCancellationHandler {
            timer.cancel()
            upstream?.cancel()
        }
        return next
    }
}
