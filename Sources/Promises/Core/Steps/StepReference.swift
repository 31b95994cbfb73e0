/// A reference to a ``StepPromise`` of any step, that may cross threads: its job on a queue and its
/// handler on the promise it follows both hold one.
@usableFromInline
struct StepReference: @unchecked Sendable {
    // `@unchecked Sendable` is sound: the object is always a `StepPromise` (a `ManagedBuffer`, which
    // cannot conform to `Sendable`). Its state is only reached through its lock. Its slot (step,
    // queue, input) is touched without the lock but by one thread at a time: it is set up before the
    // promise is shared, `start` writes the input once and then either settles at once or hands the
    // job to a dispatcher, which orders `run` after it; `deinit` runs when no reference is left.
    // The Internals article (Promises.docc) follows each reference step by step.
    @usableFromInline
    let object: AnyObject

    @inlinable
    init<Step: PromiseStep>(_ promise: StepPromise<Step>) {
        object = promise
    }

    /// The step promise, as the type it was made with.
    @inlinable
    func promise<Step: PromiseStep>(as type: StepPromise<Step>.Type) -> StepPromise<Step> {
        unsafeDowncast(object, to: type)
    }
}
