public import Foundation
import Promises

/// A round trip on loopback: answers held as a phone's network would hold them.
extension TestHTTPServer {
    /// A network's delay, for measuring a client over a phone's round trip rather than loopback's:
    /// every answer is held `roundTrip` seconds, give or take up to `jitter`, on its connection's
    /// own thread (answers on other connections are not held behind it).
    public struct Latency: Sendable, Equatable {
        /// The delay before each answer, in seconds.
        public var roundTrip: TimeInterval
        /// How far each delay may be from `roundTrip`, either way, in seconds.
        public var jitter: TimeInterval

        /// Makes a latency.
        ///
        /// - Parameters:
        ///   - roundTrip: The delay before each answer, in seconds (50 ms is `0.05`).
        ///   - jitter: How far each delay may be from it, either way; none by default.
        public init(roundTrip: TimeInterval, jitter: TimeInterval = 0) {
            (self.roundTrip, self.jitter) = (roundTrip, jitter)
        }
    }

    /// The delay before every answer from now on; `nil` (the default) answers at once. For
    /// benchmarks: a test that waits for an answer waits for the answer, never for a time.
    public var latency: Latency? {
        get { state.lock.withLock { state.latency } }
        set { state.lock.withLock { state.latency = newValue } }
    }
}
