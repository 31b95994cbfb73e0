import Foundation
import Testing

@testable import Promises

/// Foundation's "cancelled" errors are cancellations, as in PromiseKit: a `catch` with the default
/// policy skips them.
@Suite("Foundation's cancellations")
struct FoundationCancellationTests {
    @Test("URLError.cancelled is a cancellation; other URL errors are failures")
    func urlErrorCancelled() {
        #expect(URLError(.cancelled).isCancellation)
        #expect(!URLError(.timedOut).isCancellation)
        #expect(!URLError(.notConnectedToInternet).isCancellation)
    }

    @Test("CocoaError.userCancelled is a cancellation; other Cocoa errors are failures")
    func cocoaErrorUserCancelled() {
        #expect(CocoaError(.userCancelled).isCancellation)
        #expect(!CocoaError(.fileNoSuchFile).isCancellation)
    }

    @Test("catch with the default policy skips a cancelled URL request, and the promise is cancelled")
    func catchSkipsCancelledRequest() async {
        // Given
        let seen = Recorder<String>()
        let request = Promise<Int>(error: URLError(.cancelled))

        // When
        let caught = request.catch(on: .global()) { seen.append("\($0)") }
        let result = await outcome(of: caught)

        // Then
        #expect((result.failure as? URLError)?.code == .cancelled)
        #expect(request.isCancelled)
        #expect(seen.all.isEmpty)
    }

    @Test("catch with every error sees a user's cancellation")
    func catchAllErrorsSeesUserCancelled() async {
        // Given
        let seen = Recorder<Bool>()

        // When
        let caught = Promise<Int>(error: CocoaError(.userCancelled)).catch(on: .global(), policy: .allErrors)
        {
            seen.append($0.isCancellation)
        }
        _ = await outcome(of: caught)

        // Then
        #expect(seen.all == [true])
    }

    @Test("recover with the default policy passes a cancelled URL request by")
    func recoverSkipsCancelledRequest() async {
        // When
        let recovered = Promise<Int>(error: URLError(.cancelled)).recover(on: .global()) { _ in
            Promise.value(0)
        }

        // Then
        #expect((await outcome(of: recovered).failure as? URLError)?.code == .cancelled)
    }
}
