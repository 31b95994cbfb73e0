import Foundation
import Promises
public import Testing

/// Keeps what a callback delivers (an observation's values, a scheduler's states) and lets a test
/// wait for each in turn, without sleeping.
///
/// ```swift
/// let values = DeliveryRecorder<[String]>()
/// let observation = database.observe(tables: ["notes"], on: .inline, read: titles) { values.record($0) }
/// #expect(await values.next() == ["first"])
/// ```
public final class DeliveryRecorder<Value: Sendable>: Sendable {
    private struct State {
        var values: [Value] = []
        var taken = 0
        var waiter: Seal<Value>?
    }
    /// The waiter is resolved outside the lock.
    private let state = Locked(State())

    /// Makes an empty recorder.
    public init() {}

    /// Everything delivered so far, in order.
    public var all: [Value] { state.withLock { $0.values } }

    /// Whether a test waits in ``next(timeout:sourceLocation:)`` for a delivery not made yet (for
    /// the recorder's own tests: which of its two ways a delivery takes).
    var hasWaiter: Bool { state.withLock { $0.waiter != nil } }

    /// Keeps `value`, handing it to a test waiting for it.
    ///
    /// - Parameter value: What was delivered.
    public func record(_ value: Value) {
        let waiting = state.withLock { state -> Seal<Value>? in
            state.values.append(value)
            guard let waiter = state.waiter else { return nil }
            state.waiter = nil
            state.taken += 1
            return waiter
        }
        waiting?.fulfill(value)
    }

    /// The next delivery this test has not taken yet: one already kept, or the next to come.
    /// Records an issue and returns `nil` when none comes within `timeout` seconds.
    ///
    /// - Parameters:
    ///   - timeout: How long to wait, in seconds.
    ///   - sourceLocation: Where a failure is reported.
    /// - Returns: The delivery, or `nil`.
    public func next(timeout: Double = 60, sourceLocation: SourceLocation = #_sourceLocation) async -> Value?
    {
        let (promise, seal) = Promise<Value>.pending()
        state.withLock { state in
            if state.taken < state.values.count {
                seal.fulfill(state.values[state.taken])
                state.taken += 1
            } else {
                state.waiter = seal
            }
        }
        return await PromiseExpectations.value(of: promise, timeout: timeout, sourceLocation: sourceLocation)
    }

    /// Takes deliveries in turn until one satisfies `condition`, and returns it; `nil` (an issue
    /// recorded) when none does within `timeout` seconds of each.
    ///
    /// - Parameters:
    ///   - timeout: How long to wait for each delivery, in seconds.
    ///   - sourceLocation: Where a failure is reported.
    ///   - condition: What the delivery waited for satisfies.
    /// - Returns: The delivery, or `nil`.
    public func next(
        timeout: Double = 60, sourceLocation: SourceLocation = #_sourceLocation,
        where condition: @Sendable (Value) -> Bool
    ) async -> Value? {
        while let value = await next(timeout: timeout, sourceLocation: sourceLocation) {
            if condition(value) { return value }
        }
        return nil
    }
}
