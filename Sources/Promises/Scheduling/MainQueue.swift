public import Dispatch

/// Lets the operators' default overloads, which take `@MainActor` handlers, share the `on:`
/// implementation: the handler is run on the main queue, where the main actor is isolated.
@usableFromInline
enum MainQueue {
    @usableFromInline
    static let queue = DispatchQueue.main

    @inlinable
    static func adaptThrowing<Input: Sendable, Output: Sendable>(
        _ body: @escaping @MainActor (Input) throws -> Output
    ) -> @Sendable (Input) throws -> Output {
        { input in try MainActor.assumeIsolated { try body(input) } }
    }

    @inlinable
    static func adapt<Input: Sendable, Output: Sendable>(
        _ body: @escaping @MainActor (Input) -> Output
    ) -> @Sendable (Input) -> Output {
        { input in MainActor.assumeIsolated { body(input) } }
    }

    @inlinable
    static func adapt(_ body: @escaping @MainActor () -> Void) -> @Sendable () -> Void {
        { MainActor.assumeIsolated { body() } }
    }
}
