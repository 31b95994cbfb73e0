import Foundation
import Promises

/// An observation that lasts until it is cancelled or released: of a database read
/// (``Database/observe(tables:on:read:onChange:)``) or of a sync scheduler's state
/// (`SyncScheduler/observe(on:_:)`).
///
/// Keep it where the screen keeps its state, and capture the screen weakly in the handler: when
/// the screen goes, the observation goes with it.
public final class ObservationHandle: Sendable {
    private let end: @Sendable () -> Void

    /// Makes a handle that runs `end` once, when cancelled or released, whichever comes first: for
    /// an observation of your own (a test double of a watched store, say).
    ///
    /// - Parameter end: Stops the observation.
    public init(end: @escaping @Sendable () -> Void) {
        let once = Once()
        self.end = { if once.claim() { end() } }
    }

    /// Ends the observation: nothing is delivered after it returns. Cancelling twice does
    /// nothing more.
    public func cancel() {
        end()
    }

    deinit {
        end()
    }
}

/// A flag that is claimed once, whatever the thread.
final class Once: Sendable {
    private let claimed = Locked(false)

    /// Whether this call is the first.
    func claim() -> Bool {
        claimed.withLock { claimed in
            defer { claimed = true }
            return !claimed
        }
    }
}
