/// The step of `then`: a closure that starts the next asynchronous step, whose promise the new
/// promise then follows.
@usableFromInline
struct ThenStep<Input: Sendable, Output: Sendable, Queue: Dispatcher>: PromiseStep {
    @usableFromInline
    let body: @Sendable (Input) throws -> Promise<Output>

    @inlinable
    init(on _: Queue.Type, _ body: @escaping @Sendable (Input) throws -> Promise<Output>) {
        self.body = body
    }

    @inlinable
    func run(_ input: Input, settling next: PromiseStorage<Output>) {
        do {
            next.adopt(try body(input))
        } catch {
            next.settle(.rejected(error, handled: false))
        }
    }
}
