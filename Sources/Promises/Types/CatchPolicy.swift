/// Which errors a `catch` or `recover` handler is given.
///
/// Closed: an error either is a cancellation or is not.
public enum CatchPolicy: Sendable {
    /// Every error except a cancellation (the default): cancelling is not a failure to show.
    case allErrorsExceptCancellation
    /// Every error, cancellation included.
    case allErrors

    @inlinable
    func admits(_ error: any Error) -> Bool {
        self == .allErrors || !error.isCancellation
    }
}
