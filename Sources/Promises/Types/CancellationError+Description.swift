// What a cancelled promise is rejected with says so in words, as PromiseKit's `PMKError.cancelled`
// did: `localizedDescription` (through `errorDescription`) for a message, `debugDescription` for a
// log. Swift's `CancellationError` has neither: it prints as `CancellationError()`.
//
// Both conformances are of a standard-library type to a Foundation or standard protocol, so they
// are marked `@retroactive`: should a later SDK add its own, the compiler says so, and this file
// goes.
public import Foundation

// swift-format-ignore: AvoidRetroactiveConformances
extension CancellationError: @retroactive LocalizedError {
    /// "The operation was cancelled.": what a screen shows, if it shows a cancellation at all.
    public var errorDescription: String? {
        "The operation was cancelled."
    }
}

// swift-format-ignore: AvoidRetroactiveConformances
extension CancellationError: @retroactive CustomDebugStringConvertible {
    /// `CancellationError: the promise or task was cancelled`, for a log.
    public var debugDescription: String {
        "CancellationError: the promise or task was cancelled"
    }
}
