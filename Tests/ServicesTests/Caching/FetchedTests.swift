import Foundation
import PromiseMVPTesting
import Testing

/// `Fetched`'s notice, and the 5xx edge of `ServiceRequestError.isServerError`: rules that decide
/// what a screen shows, each once caught by no test when broken on purpose.
@Suite("Fetched")
struct FetchedTests {
    @Test(
        "a server error is a status from 500 to 599, nothing else",
        arguments: [(499, false), (500, true), (503, true), (599, true), (600, false), (404, false)])
    func serverErrors(status: Int, isServerError: Bool) {
        #expect(ServiceRequestError.httpStatus(status).isServerError == isServerError)
    }

    @Test("only fresh data that could not be saved says so; a copy never does, whatever it carries")
    func unsavedNoticeIsForFreshDataOnly() {
        let failure = ServiceRequestError.storageFailed(reason: "app.sqlite: the disk is full")
        let fresh = Fetched(value: 1, source: .network, cacheWriteError: failure)
        let copy = Fetched(value: 1, source: .stored(savedAt: Date()), cacheWriteError: failure)
        let saved = Fetched(value: 1, source: .network)

        #expect(
            fresh.unsavedNotice
                == "Fresh, but they could not be saved for offline use: app.sqlite: the disk is full")
        #expect(copy.unsavedNotice == nil)
        #expect(saved.unsavedNotice == nil)
    }
}
