public import Foundation

/// What ``BackgroundSync`` asks the system for: a wake of the app no earlier than ``earliest``.
public struct BackgroundTaskRequest: Sendable, Equatable {
    /// The kind of wake.
    public enum Kind: Sendable, Equatable {
        /// A short wake (`BGAppRefreshTaskRequest`): about 30 seconds, at times the system picks
        /// from how the user uses the app.
        case appRefresh
        /// A longer wake (`BGProcessingTaskRequest`), when the device is idle, with the network.
        case processing
    }

    /// The task's identifier, listed in the app's `BGTaskSchedulerPermittedIdentifiers`.
    public let identifier: String
    /// Not before this time.
    public let earliest: Date
    /// The kind of wake.
    public let kind: Kind

    /// Makes a request.
    ///
    /// - Parameters:
    ///   - identifier: The task's identifier.
    ///   - earliest: Not before this time.
    ///   - kind: The kind of wake.
    public init(identifier: String, earliest: Date, kind: Kind) {
        self.identifier = identifier
        self.earliest = earliest
        self.kind = kind
    }
}

/// Submits ``BackgroundTaskRequest``s: `BGTaskScheduler` on iOS (`BackgroundSync.systemScheduler`),
/// a test's recorder elsewhere.
public protocol BackgroundTaskScheduler: Sendable {
    /// Asks the system for the wake `request` describes, replacing an earlier request of its
    /// identifier.
    ///
    /// - Parameter request: The wake asked for.
    /// - Throws: Why the system refused it (background refresh turned off, too many requests).
    func submit(_ request: BackgroundTaskRequest) throws
}

/// One wake the system gave the app: `BGTask` on iOS, a test's stand-in elsewhere.
public protocol BackgroundWake: Sendable {
    /// Sets what runs when the system ends the wake before the work is done.
    ///
    /// - Parameter handler: Cancels the work; called at most once, on any thread.
    func onExpiration(_ handler: @escaping @Sendable () -> Void)
    /// Tells the system the work is done.
    ///
    /// - Parameter success: Whether it finished.
    func complete(success: Bool)
}
