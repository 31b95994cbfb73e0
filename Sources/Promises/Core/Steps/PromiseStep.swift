/// What one operator does once the promise it follows is fulfilled: `map`, `done` and `then` each
/// describe their step with one, and ``StepPromise`` keeps it in the new promise's own allocation.
@usableFromInline
protocol PromiseStep: Sendable {
    associatedtype Input: Sendable
    associatedtype Output: Sendable
    /// Where the step runs. The queue itself is not part of the step: ``StepPromise`` keeps it
    /// only while the step waits for its input.
    associatedtype Queue: Dispatcher

    /// Runs the step with the value it waited for, and settles `next` (now or later) with its
    /// outcome.
    func run(_ input: Input, settling next: PromiseStorage<Output>)
}
