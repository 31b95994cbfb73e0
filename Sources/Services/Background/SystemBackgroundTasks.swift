// `BGTaskScheduler` behind the seams of ``BackgroundSync``: iOS (and iPadOS, Mac Catalyst,
// visionOS) only. macOS has no such tasks (`NSBackgroundActivityScheduler` is another API, not
// wired here) and Linux has no system scheduler: the seams' test doubles stand in there.
#if canImport(BackgroundTasks) && !os(macOS) && !os(tvOS)
    import BackgroundTasks
    import Foundation
    import Promises

    extension BackgroundSync {
        /// `BGTaskScheduler.shared`: an app refresh request, or a processing request that needs
        /// the network.
        public static var systemScheduler: any BackgroundTaskScheduler { SystemScheduler() }

        /// Registers the task's launch handler with `BGTaskScheduler.shared`, which then calls
        /// ``run(_:)`` at each wake. Call it before the app finishes launching (Apple's rule), once.
        ///
        /// - Returns: Whether the system took it; `false` when the identifier is not listed in the
        ///   app's `BGTaskSchedulerPermittedIdentifiers`.
        @discardableResult
        public func register() -> Bool {
            let sync = self
            return BGTaskScheduler.shared.register(forTaskWithIdentifier: identifier, using: nil) { task in
                sync.run(SystemWake(task))
            }
        }
    }

    /// Submits requests to `BGTaskScheduler.shared`.
    struct SystemScheduler: BackgroundTaskScheduler {
        func submit(_ request: BackgroundTaskRequest) throws {
            let submitted: BGTaskRequest
            switch request.kind {
            case .appRefresh:
                submitted = BGAppRefreshTaskRequest(identifier: request.identifier)
            case .processing:
                let processing = BGProcessingTaskRequest(identifier: request.identifier)
                processing.requiresNetworkConnectivity = true
                submitted = processing
            }
            submitted.earliestBeginDate = request.earliest
            try BGTaskScheduler.shared.submit(submitted)
        }
    }

    /// One `BGTask` as a ``BackgroundWake``.
    final class SystemWake: BackgroundWake, @unchecked Sendable {
        // `@unchecked Sendable` is sound: `task` (a `BGTask`, not `Sendable`) is only touched
        // inside `lock`, so no two threads use it at once. The system calls the expiration handler
        // on a thread of its own; that handler is `BackgroundSync`'s `@Sendable` closure, which
        // reaches `task` only through `complete(success:)`, inside the lock again.
        private let lock = Locked()
        private let task: BGTask

        init(_ task: BGTask) {
            self.task = task
        }

        func onExpiration(_ handler: @escaping @Sendable () -> Void) {
            lock.withLock { task.expirationHandler = { handler() } }
        }

        func complete(success: Bool) {
            lock.withLock { task.setTaskCompleted(success: success) }
        }
    }
#endif
