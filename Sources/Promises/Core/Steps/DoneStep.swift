/// The step of `done`: a closure that uses the value, or throws to reject.
///
/// ``TransformStep`` would do, with `Void` for its output, but a closure stored where the output is
/// generic is kept behind a reabstraction thunk (the result is returned indirectly), which costs an
/// allocation per step; here the closure is stored as the caller made it.
@usableFromInline
struct DoneStep<Input: Sendable, Queue: Dispatcher>: PromiseStep {
    @usableFromInline
    let body: @Sendable (Input) throws -> Void

    @inlinable
    init(on _: Queue.Type, _ body: @escaping @Sendable (Input) throws -> Void) {
        self.body = body
    }

    @inlinable
    func run(_ input: Input, settling next: PromiseStorage<Void>) {
        next.settle(Resolution { try body(input) })
    }
}
