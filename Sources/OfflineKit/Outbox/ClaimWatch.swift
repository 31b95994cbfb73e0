import Dispatch
import Promises
import Services

/// What this process saw of another sync's claim (``OutboxClaim``): whose it was, its heartbeat,
/// and when, by a monotonic clock, it was first seen at that beat. A holder advances its beat at
/// every renewal; one whose beat has not moved for a whole lease, by this process's own
/// monotonic clock, has stopped sending and its claim may be taken. Wall-clock time plays no
/// part: a process whose clock jumped forward an hour (or a year) still sees a live holder's beat
/// move, and waits.
final class ClaimWatch: Sendable {
    private struct Seen: Sendable {
        let owner: String
        let beat: Int
        let since: Double
    }

    private let seen = Locked<[String: Seen]>([:])
    /// Seconds on a monotonic clock: `DispatchTime`'s uptime by default; tests pass their own.
    private let elapsed: @Sendable () -> Double

    /// Makes a watch on `elapsed`'s clock.
    init(elapsed: @escaping @Sendable () -> Double = { Double(DispatchTime.now().uptimeNanoseconds) / 1e9 }) {
        self.elapsed = elapsed
    }

    /// Whether `owner`'s claim on `feature` has stayed at `beat` for `lease` seconds or more since
    /// this process first saw it there; a claim seen for the first time, or at a new beat, starts
    /// the count again.
    func hasStalled(_ feature: String, owner: String, beat: Int, lease: Double) -> Bool {
        let now = elapsed()
        return seen.withLock { seen in
            if let last = seen[feature], last.owner == owner, last.beat == beat {
                return now - last.since >= lease
            }
            seen[feature] = Seen(owner: owner, beat: beat, since: now)
            return false
        }
    }
}
