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
public final class DeliveryRecorder<Value: Sendable>: @unchecked Sendable {
    // `@unchecked Sendable` is sound: `values`, `taken` and `waiter` are only read or written while
    // holding `lock`; the waiter is resolved outside it.
    private let lock = NSLock()
    private var values: [Value] = []
    private var taken = 0
    private var waiter: Seal<Value>?

    /// Makes an empty recorder.
    public init() {}

    /// Everything delivered so far, in order.
    public var all: [Value] { lock.withLock { values } }

    /// Keeps `value`, handing it to a test waiting for it.
    ///
    /// - Parameter value: What was delivered.
    public func record(_ value: Value) {
        let waiting = lock.withLock { () -> Seal<Value>? in
            values.append(value)
            guard let waiter else { return nil }
            self.waiter = nil
            taken += 1
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
        lock.withLock {
            if taken < values.count {
                seal.fulfill(values[taken])
                taken += 1
            } else {
                waiter = seal
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
