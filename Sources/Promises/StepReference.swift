/// A reference to a ``StepPromise`` of any step, that may cross threads: its job on a queue and its
/// handler on the promise it follows both hold one.
@usableFromInline
struct StepReference: @unchecked Sendable {
    // `@unchecked Sendable` is sound because the object is always a `StepPromise` (a
    // `ManagedBuffer`, which cannot conform to `Sendable` itself), whose memory is guarded as
    // follows. Its state is only reached through its lock, as for every promise. Its slot (the step,
    // its queue and the input) is touched without the lock, but never by two threads at once: it is
    // initialised before the promise is shared; `start` writes the input once (the promise it
    // follows settles once and runs each handler once) and then either settles the step's promise at
    // once or dispatches `run`, the only other access; dispatching orders `run` after everything
    // `start` did (the mailbox's lock, `DispatchQueue.async`, or the same thread for `.inline`; any
    // `Dispatcher` must order its work after its `dispatch` call to run it later at all). Its
    // `deinit` runs when no reference is left, so no other access remains.
    @usableFromInline
    let object: AnyObject

    @inlinable
    init<Step: PromiseStep>(_ promise: StepPromise<Step>) {
        object = promise
    }

    /// The step promise, as the type it was made with.
    @inlinable
    func `as`<Step: PromiseStep>(_ type: StepPromise<Step>.Type) -> StepPromise<Step> {
        unsafeDowncast(object, to: type)
    }
}
