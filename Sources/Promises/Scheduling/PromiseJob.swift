/// A ``StepPromise`` ready to run on its queue: a queue's mailbox holds one instead of a closure.
///
/// It carries the function that runs the step, made where the step's types are known, rather than
/// calling through a protocol: methods of a generic class called that way run unspecialised, and
/// look up type metadata at every turn.
@usableFromInline
struct PromiseJob: Sendable {
    @usableFromInline
    let promise: StepReference
    @usableFromInline
    let run: @Sendable (StepReference) -> Void

    /// The job of the step promise `promise` refers to, holding that reference.
    @inlinable
    init<Step: PromiseStep>(_ promise: consuming StepReference, of _: Step.Type) {
        self.promise = promise
        run = { $0.promise(as: StepPromise<Step>.self).run() }
    }

    /// Runs the step, once; called on the queue the step asked for.
    @inlinable
    func callAsFunction() {
        run(promise)
    }
}
