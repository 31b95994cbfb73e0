import Dispatch

/// Lets the operators' default overloads, which take `@MainActor` handlers, share the `on:`
/// implementation: the handler is run on the main queue, where the main actor is isolated.
enum MainQueue {
    static let queue = DispatchQueue.main

    static func adaptThrowing<Input: Sendable, Output: Sendable>(
        _ body: @escaping @MainActor (Input) throws -> Output
    ) -> @Sendable (Input) throws -> Output {
        { input in try MainActor.assumeIsolated { try body(input) } }
    }

    static func adapt<Input: Sendable, Output: Sendable>(
        _ body: @escaping @MainActor (Input) -> Output
    ) -> @Sendable (Input) -> Output {
        { input in MainActor.assumeIsolated { body(input) } }
    }

    static func adapt(_ body: @escaping @MainActor () -> Void) -> @Sendable () -> Void {
        { MainActor.assumeIsolated { body() } }
    }
}
