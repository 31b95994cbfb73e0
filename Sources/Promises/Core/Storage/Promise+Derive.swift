// How an operator makes the promise it returns. Four verbs, one per shape of operator:
//
// - `follow(with:on:)`: a one-step operator whose step runs once this promise is fulfilled
//   (`map`, `done`, `then`): the new promise is a `StepPromise` holding its step, one allocation.
// - `transformFulfilled(on:_:)`: `follow` with a `TransformStep`, for a closure that makes a value.
// - `derive(_:)`: any other operator (`catch`, `recover`, `ensure`, `tap`): it gets the new
//   promise and returns the one closure that settles it from this promise's resolution.
// - `adopt(_:)`: settles a promise like another one, for a handler that returned a promise.
//
// Each links cancellation back: cancelling the new promise cancels this one when it can be.

extension Promise {
    /// Makes a promise that `transform` fulfills with the value it makes on `queue` once this one is
    /// fulfilled; a rejection passes straight on, and a throwing `transform` rejects.
    ///
    /// `map` and `done` use it as is.
    @inlinable
    consuming func transformFulfilled<NewValue>(
        on queue: some Dispatcher,
        _ transform: @escaping @Sendable (Value) throws -> NewValue
    ) -> Promise<NewValue> {
        follow(with: TransformStep(on: type(of: queue), transform), on: queue)
    }

    /// Makes the promise of `step` and starts it on `queue` once this promise is fulfilled; a
    /// rejection passes straight on, and a cancellation of the new promise is passed on to this one
    /// when this one is cancellable.
    ///
    /// The new promise is its own handler and its own queued work (``StepPromise``), so a step
    /// costs one allocation besides what its closure captures. It keeps `queue` only while it
    /// waits: a step started at once does not retain the queue at all.
    // `consuming`, like the public operators that call it: a chain written `p = p.map { ... }`
    // hands its reference to the promise on instead of retaining it here and releasing it after.
    @inlinable
    consuming func follow<Step: PromiseStep>(with step: Step, on queue: Step.Queue) -> Promise<Step.Output>
    where Step.Input == Value {
        switch (consume self).representation {
        case .fulfilled(let value):
            let stepPromise = StepPromise.make(step, waitingOn: nil)
            stepPromise.start(with: .fulfilled(value), on: queue)
            return stepPromise.promise
        case .shared(let storage):
            // The queue is in place before the step is registered: the promise may settle at once,
            // on another thread.
            let stepPromise = StepPromise.make(step, waitingOn: queue)
            let cancellable = storage.subscribe(.step(StepHandler(stepPromise)))
            let next = stepPromise.promise
            if cancellable {
                next.cancelsUpstream(Promise(storage: storage))
            }
            return next
        }
    }

    /// Makes the pending promise an operator returns: it stays silent when dropped while pending,
    /// because the promise it waits on reports that.
    @inlinable
    static func derived() -> Promise<Value> {
        Promise(PromiseState(abandonment: .silent))
    }

    /// Makes a promise settled by the handler `makeHandler` builds for it, registers that handler on
    /// this promise, and passes a cancellation of the new promise on to this one when this one is
    /// cancellable.
    ///
    /// - Parameters:
    ///   - linkingCancellation: False when the new promise backs a ``Guarantee``, which must never
    ///     be rejected by a cancellation.
    ///   - makeHandler: Given the new promise, makes the one closure that settles it once this
    ///     promise settled.
    /// - Returns: The new promise.
    @inlinable
    func derive<NewValue>(
        linkingCancellation: Bool = true,
        _ makeHandler: (Promise<NewValue>) -> Handlers<Value>.Handler
    ) -> Promise<NewValue> {
        let next = Promise<NewValue>.derived()
        let cancellable = subscribe(makeHandler(next))
        if cancellable && linkingCancellation {
            next.cancelsUpstream(self)
        }
        return next
    }

    /// Settles this promise like `other` does, and, if `other` is cancellable, passes a cancellation
    /// of this one on to it.
    @inlinable
    func adopt(_ other: Promise<Value>) {
        guard case .shared(let storage) = representation else { return }  // fulfilled from the start
        storage.adopt(other)
    }
}
