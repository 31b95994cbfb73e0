public import Dispatch

/// The word that picks the promise-returning `DispatchQueue.async`: `queue.async(.promise) { ... }`.
public enum PromiseReturning: Sendable {
    /// Return a promise (or a guarantee, for a body that cannot throw) of the body's result.
    case promise
}

extension DispatchQueue {
    /// Runs `body` on this queue and gives a promise of what it returns, or of the error it throws:
    /// the way PromiseKit starts a chain with work on another queue.
    ///
    /// ```swift
    /// DispatchQueue.global().async(.promise) { try decode(data) }.done { show($0) }
    /// ```
    ///
    /// - Parameters:
    ///   - promise: `.promise`, the word that picks this method.
    ///   - group: A group the work belongs to, if any.
    ///   - qos: The quality of service of the work.
    ///   - flags: How the work runs (`.barrier` on a concurrent queue, for example).
    ///   - body: The work; throwing rejects the promise.
    /// - Returns: A promise of `body`'s result.
    public func async<Value: Sendable>(
        _ promise: PromiseReturning,
        group: DispatchGroup? = nil,
        qos: DispatchQoS = .unspecified,
        flags: DispatchWorkItemFlags = [],
        execute body: @escaping @Sendable () throws -> Value
    ) -> Promise<Value> {
        Promise { seal in
            async(group: group, qos: qos, flags: flags) {
                do {
                    seal.fulfill(try body())
                } catch {
                    seal.reject(error)
                }
            }
        }
    }

    /// Runs `body`, which cannot fail, on this queue and gives a guarantee of what it returns.
    ///
    /// - Parameters:
    ///   - promise: `.promise`, the word that picks this method.
    ///   - group: A group the work belongs to, if any.
    ///   - qos: The quality of service of the work.
    ///   - flags: How the work runs.
    ///   - body: The work.
    /// - Returns: A guarantee of `body`'s result.
    public func async<Value: Sendable>(
        _ promise: PromiseReturning,
        group: DispatchGroup? = nil,
        qos: DispatchQoS = .unspecified,
        flags: DispatchWorkItemFlags = [],
        execute body: @escaping @Sendable () -> Value
    ) -> Guarantee<Value> {
        Guarantee { resolve in
            async(group: group, qos: qos, flags: flags) { resolve(body()) }
        }
    }
}
