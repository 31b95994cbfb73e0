// A stand-in for Apple's BackgroundTasks framework, declaring only what the package calls, with
// the signatures Apple's documentation gives (`BGTaskScheduler`, `BGTaskRequest` and its two
// kinds, `BGTask`), so that `.ci/apple-typecheck` can compile the package's
// `#if canImport(BackgroundTasks)` code on Linux. Nothing here runs.
import Dispatch
import Foundation

open class BGTaskRequest: NSObject, @unchecked Sendable {
    // `@unchecked Sendable` as Apple's headers declare these requests: plain values the app fills.
    public let identifier: String
    open var earliestBeginDate: Date?

    public init(identifier: String) {
        self.identifier = identifier
    }
}

open class BGAppRefreshTaskRequest: BGTaskRequest, @unchecked Sendable {}

open class BGProcessingTaskRequest: BGTaskRequest, @unchecked Sendable {
    open var requiresNetworkConnectivity = false
    open var requiresExternalPower = false
}

open class BGTask: NSObject {
    open var identifier: String { "" }
    open var expirationHandler: (() -> Void)?

    open func setTaskCompleted(success: Bool) {}
}

open class BGAppRefreshTask: BGTask {}

open class BGProcessingTask: BGTask {}

open class BGTaskScheduler: NSObject, @unchecked Sendable {
    // `@unchecked Sendable` as Apple declares it: the scheduler serialises its own state.
    open class var shared: BGTaskScheduler { BGTaskScheduler() }

    open func register(
        forTaskWithIdentifier identifier: String, using queue: DispatchQueue?,
        launchHandler: @escaping (BGTask) -> Void
    ) -> Bool { false }

    open func submit(_ taskRequest: BGTaskRequest) throws {}
}
