/// An error that may stand for a cancellation rather than a failure.
///
/// Conform an error type of your own (for example a networking error with a "cancelled" case) so
/// that `catch` skips it by default, as it skips `CancellationError`.
public protocol CancellableError: Error {
    /// Whether this error means the work was cancelled.
    var isCancelled: Bool { get }
}

extension Error {
    /// Whether this error means the work was cancelled: a `CancellationError`, or a
    /// ``CancellableError`` that says so.
    public var isCancellation: Bool {
        if self is CancellationError { return true }
        if let cancellable = self as? any CancellableError { return cancellable.isCancelled }
        return false
    }
}
