// Foundation's own "cancelled" errors are cancellations, as they are in PromiseKit: a `catch` with
// the default policy skips a URL request that was cancelled, or a dialog the user dismissed. This
// is the one place they are named; `Error.isCancellation` reads them through `CancellableError`.
public import Foundation

extension URLError: CancellableError {
    /// Whether the request was cancelled (`URLError.cancelled`), rather than failed.
    public var isCancelled: Bool {
        code == .cancelled
    }
}

extension CocoaError: CancellableError {
    /// Whether the user cancelled the operation (`CocoaError.userCancelled`), rather than it failed.
    public var isCancelled: Bool {
        code == .userCancelled
    }
}
