import Foundation
public import Promises

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// When an ``APIClient`` sends a GET again after a failure that may pass on its own.
///
/// A GET that could not connect, timed out, lost its connection, or was answered 502, 503 or 504 is
/// sent again after a wait, up to ``maximumRetries`` times, all within the client's overall
/// ``APIClient/timeout``. The wait before retry `n` (counting from 0) is drawn at random between 0
/// and `min(maximumDelay, baseDelay × 2ⁿ)` ("full jitter"), so that many clients that failed
/// together do not come back together. A `Retry-After` the server sent is waited instead, when it
/// is at most ``APIClient/maximumRetryAfter``.
///
/// Writes are never retried this way: whether a failed POST reached the server is not known, and
/// the outbox (`Outbox`) replays writes with an idempotency key instead.
///
/// ```swift
/// // Tests: no real waiting, and the longest wait each time.
/// let retry = RetryPolicy(jitter: { $0 }, wait: { _ in Guarantee.value(()) })
/// let client = APIClient(baseURL: server.baseURL, retry: retry)
/// ```
public struct RetryPolicy: Sendable {
    /// How many times a GET is sent again at most; 0 never retries.
    public var maximumRetries: Int
    /// The ceiling of the first wait, in seconds; it doubles for every retry after it.
    public var baseDelay: Double
    /// The ceiling no wait goes past, in seconds.
    public var maximumDelay: Double
    /// Picks a wait between 0 and the ceiling it is given: at random by default. Tests pass one
    /// that answers predictably.
    public var jitter: @Sendable (_ ceiling: Double) -> Double
    /// Waits the given number of seconds: `after(seconds:)` by default. Tests pass one that
    /// records the wait and returns at once.
    public var wait: @Sendable (_ seconds: Double) -> Guarantee<Void>

    /// Makes a policy.
    ///
    /// - Parameters:
    ///   - maximumRetries: How many times a GET is sent again at most; 2 by default.
    ///   - baseDelay: The ceiling of the first wait; 0.5 s by default.
    ///   - maximumDelay: The ceiling of every wait; 4 s by default.
    ///   - jitter: Picks a wait up to a ceiling; uniformly at random by default.
    ///   - wait: Waits; `after(seconds:)` by default.
    public init(
        maximumRetries: Int = 2, baseDelay: Double = 0.5, maximumDelay: Double = 4,
        jitter: @escaping @Sendable (_ ceiling: Double) -> Double = { Double.random(in: 0...max(0, $0)) },
        wait: @escaping @Sendable (_ seconds: Double) -> Guarantee<Void> = { after(seconds: $0) }
    ) {
        self.maximumRetries = max(0, maximumRetries)
        self.baseDelay = max(0, baseDelay)
        self.maximumDelay = max(0, maximumDelay)
        self.jitter = jitter
        self.wait = wait
    }

    /// Two retries, waits of up to 0.5 s, 1 s, ... and never more than 4 s.
    public static var standard: RetryPolicy { RetryPolicy() }

    /// Never sends a request again.
    public static var never: RetryPolicy { RetryPolicy(maximumRetries: 0) }

    /// The longest wait before retry `retry` (counting from 0): the base doubled `retry` times,
    /// at most ``maximumDelay``.
    ///
    /// - Parameter retry: Which retry, from 0.
    /// - Returns: The ceiling, in seconds.
    public func ceiling(beforeRetry retry: Int) -> Double {
        // Past 2⁶² the doubling only overflows; the cap has long been reached.
        min(maximumDelay, baseDelay * Double(sign: .plus, exponent: min(retry, 62), significand: 1))
    }

    /// The wait before retry `retry`: the jitter's pick, kept between 0 and the ceiling.
    package func delay(beforeRetry retry: Int) -> Double {
        let ceiling = ceiling(beforeRetry: retry)
        let picked = jitter(ceiling)
        return picked.isFinite ? min(max(0, picked), ceiling) : ceiling
    }

    /// Whether `error` may pass on its own: ``FailureClass/passesSoon``.
    ///
    /// - Parameter error: What a request failed with.
    /// - Returns: Whether sending the same GET again may succeed.
    public static func isTransient(_ error: any Error) -> Bool {
        FailureClass(error).passesSoon
    }
}

extension RetryPolicy {
    /// Waits for something that may pass (an API down, a sync failing): 1 s doubling, full
    /// jitter, at most 5 minutes, never giving up.
    public static var neverGivingUp: RetryPolicy {
        RetryPolicy(maximumRetries: .max, baseDelay: 1, maximumDelay: 300)
    }
}
