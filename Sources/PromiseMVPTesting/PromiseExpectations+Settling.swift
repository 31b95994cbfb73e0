import Dispatch
import Foundation
public import Promises
public import Testing

extension PromiseExpectations {
    /// What `read` sees on the main actor at the very moment `promise` settles (fulfilled or
    /// rejected), before any other handler of it runs: for checking that a presenter's promise is
    /// the chain that updates its view, not one that settles before the view was told. Awaiting
    /// the promise and then looking at the view would not tell: by the time the test resumes, the
    /// view has been updated either way.
    ///
    /// ```swift
    /// let rows = await PromiseExpectations.seenWhenSettled(presenter.fetchMelodies()) { view.shownRows }
    /// #expect(rows == .some(expectedRows))
    /// ```
    ///
    /// - Parameters:
    ///   - promise: The presenter's promise.
    ///   - timeout: How long to wait for it, in seconds.
    ///   - sourceLocation: Where a failure is reported; the caller's line by default.
    ///   - read: Reads the view's state on the main actor.
    /// - Returns: What `read` returned; `nil`, after recording an issue, when the promise settled
    ///   off the main thread (then the view cannot have been updated in the same step) or not in
    ///   time.
    ///
    /// On the main actor, so that the look is registered before the main actor can run the
    /// presenter's chain any further: call it right after starting the fetch, as the example does.
    @MainActor
    public static func seenWhenSettled<Value, Seen: Sendable>(
        _ promise: Promise<Value>, timeout: Double = 60, sourceLocation: SourceLocation = #_sourceLocation,
        _ read: @escaping @MainActor @Sendable () -> Seen
    ) async -> Seen? {
        let (seen, seal) = Promise<Seen>.pending()
        let look: @Sendable () -> Void = {
            guard MainQueue.isCurrent else {
                return seal.reject(SettledOffTheMainThread())
            }
            seal.fulfill(MainActor.assumeIsolated(read))
        }
        _ = promise.done(on: .inline) { _ in look() }.catch(on: .inline, policy: .allErrors) { _ in look() }
        return await value(of: seen, timeout: timeout, sourceLocation: sourceLocation)
    }
}

/// Whether the caller runs on the main queue: what the main actor runs on (on Linux not always the
/// main thread, so `Thread.isMainThread` cannot tell).
private enum MainQueue {
    private static let key: DispatchSpecificKey<Bool> = {
        let key = DispatchSpecificKey<Bool>()
        DispatchQueue.main.setSpecific(key: key, value: true)
        return key
    }()

    static var isCurrent: Bool { DispatchQueue.getSpecific(key: key) == true }
}

/// The promise settled on a thread other than the main thread.
private struct SettledOffTheMainThread: Error, CustomStringConvertible {
    var description: String { "the promise settled off the main thread, so not after a view update" }
}
