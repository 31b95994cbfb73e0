/// A handler entry that hands the resolution it receives to a ``StepPromise`` waiting on it,
/// without a closure of its own: the step promise is the handler.
///
/// Like ``PromiseJob``, it carries a function made where the step's types are known instead of
/// calling the step promise through a protocol.
@usableFromInline
struct StepHandler<Value: Sendable>: Sendable {
    @usableFromInline
    let promise: StepReference
    @usableFromInline
    let receive: @Sendable (consuming StepReference, Resolution<Value>) -> Void

    @inlinable
    init<Step: PromiseStep>(_ promise: StepPromise<Step>) where Step.Input == Value {
        self.promise = StepReference(promise)
        receive = { reference, resolution in
            // The handler's reference becomes the job's, and the promise is borrowed meanwhile,
            // without a retain and release of its own: the reference keeps it alive, in `held` and
            // then in `start`, which touches the promise only before it hands the job on.
            let promise = Unmanaged.passUnretained(reference.object)
            var held = Optional(consume reference)
            promise._withUnsafeGuaranteedRef { promise in
                guard let reference = held.take() else { return }
                unsafeDowncast(promise, to: StepPromise<Step>.self).start(
                    with: resolution, holding: reference)
            }
        }
    }

    @inlinable
    consuming func callAsFunction(_ resolution: Resolution<Value>) {
        receive(promise, resolution)
    }
}
