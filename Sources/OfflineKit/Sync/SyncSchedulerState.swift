public import Foundation
public import Services

/// What a ``SyncScheduler`` is doing, as a screen or a log shows it.
///
/// More states may be added: a `switch` over it needs a `default`.
public enum SyncSchedulerState: Sendable, Equatable {
    /// Nothing to send, or nothing that can be sent without the user (refused or conflicted
    /// changes): it syncs again when a change is queued, connectivity comes back or the app is
    /// active again.
    case idle
    /// A sync is running.
    case syncing
    /// A sync is due at `until`.
    case waiting(until: Date, because: WaitReason)
    /// Connectivity is known to be lost: nothing is sent until it comes back.
    case offline
    /// ``SyncScheduler/stop()`` was called, or it was never started.
    case stopped
    /// The API wants a sign-in (`401`), or nobody is signed in: the changes wait, untouched,
    /// until ``SyncScheduler/signedIn()`` (or the app is active again).
    case signedOut

    /// Why a ``SyncScheduler`` waits before it syncs.
    ///
    /// More reasons may be added: a `switch` over it needs a `default`.
    public enum WaitReason: Sendable, Equatable {
        /// Changes were just queued: a short wait gathers a burst of them into one sync.
        case changesQueued
        /// The last sync stopped on `error`, which may pass (no connection, a timeout, 5xx,
        /// 429): the wait is the API's `Retry-After`, or the backoff.
        case failed(ServiceRequestError)
    }
}
