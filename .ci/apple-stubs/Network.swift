// A stand-in for Apple's Network framework, declaring only what the package calls, with the
// signatures Apple's documentation gives (`NWPathMonitor`, `NWPath`), so that
// `.ci/apple-typecheck` can compile the package's `#if canImport(Network)` code on Linux.
// Nothing here runs.
import Dispatch

public struct NWPath: Sendable, Equatable {
    public enum Status: Sendable, Equatable {
        case satisfied
        case unsatisfied
        case requiresConnection
    }

    public let status: NWPath.Status
    public let isExpensive: Bool
    public let isConstrained: Bool
}

public final class NWPathMonitor: @unchecked Sendable {
    // `@unchecked Sendable` as Apple declares it: the framework serialises its own state.
    public var pathUpdateHandler: (@Sendable (_ newPath: NWPath) -> Void)?
    public var currentPath: NWPath { NWPath(status: .unsatisfied, isExpensive: false, isConstrained: false) }
    public var queue: DispatchQueue? { nil }

    public init() {}

    public func start(queue: DispatchQueue) {}
    public func cancel() {}
}
