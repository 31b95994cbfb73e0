/// The step of `map` (and of the operators built on it): a closure that makes the new value, or
/// throws to reject. `done` has a step of its own, ``DoneStep``.
@usableFromInline
struct TransformStep<Input: Sendable, Output: Sendable, Queue: Dispatcher>: PromiseStep {
    @usableFromInline
    let transform: @Sendable (Input) throws -> Output

    @inlinable
    init(on _: Queue.Type, _ transform: @escaping @Sendable (Input) throws -> Output) {
        self.transform = transform
    }

    @inlinable
    func run(_ input: Input, settling next: PromiseStorage<Output>) {
        next.settle(Resolution { try transform(input) })
    }
}
