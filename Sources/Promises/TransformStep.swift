/// The step of `map` and `done`: a closure that makes the new value, or throws to reject.
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
