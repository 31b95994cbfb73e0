/// A handler entry that hands the resolution it receives to a ``StepPromise`` waiting on it,
/// without a closure of its own: the step promise is the handler.
///
/// Like ``PromiseJob``, it carries a function made where the step's types are known instead of
/// calling the step promise through a protocol.
@usableFromInline
struct StepInput<Value: Sendable>: Sendable {
    @usableFromInline
    let promise: StepReference
    @usableFromInline
    let receive: @Sendable (StepReference, Resolution<Value>) -> Void

    @inlinable
    init<Step: PromiseStep>(_ promise: StepPromise<Step>) where Step.Input == Value {
        self.promise = StepReference(promise)
        receive = { $0.as(StepPromise<Step>.self).start(with: $1) }
    }

    @inlinable
    func callAsFunction(_ resolution: Resolution<Value>) {
        receive(promise, resolution)
    }
}
