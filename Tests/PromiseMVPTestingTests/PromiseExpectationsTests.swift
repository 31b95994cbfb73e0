import Foundation  // String.contains(_:) before macOS 13 / iOS 16
import PromiseMVPTesting
import Promises
import Services
import Testing

/// The Swift Testing helpers wait for the promise and fail the test when it does not end as
/// expected, so a presenter test built on them cannot pass vacuously.
@Suite("PromiseExpectations")
struct PromiseExpectationsTests {
    @Test("value(of:) gives the value of a promise fulfilled later, with no issue")
    func valueOfFulfilled() async {
        // Given
        let (promise, seal) = Promise<Int>.pending()

        // When
        let value = Task { await PromiseExpectations.value(of: promise) }
        seal.fulfill(7)

        // Then
        #expect(await value.value == 7)
    }

    @Test("value(of:) takes a guarantee too, and gives its value once fulfilled")
    func valueOfGuarantee() async {
        // Given
        let (guarantee, resolve) = Guarantee<String>.pending()

        // When
        let value = Task { await PromiseExpectations.value(of: guarantee) }
        resolve("done")

        // Then
        #expect(await value.value == "done")
    }

    @Test("value(of:) records an issue when the promise is rejected")
    func valueOfRejectedFails() async {
        await withKnownIssue {
            // When
            let value = await PromiseExpectations.value(
                of: Promise<Int>(error: ServiceRequestError.noNetwork))

            // Then
            #expect(value == nil)
        } matching: { issue in
            issue.comments.contains { $0.rawValue.contains("rejected with noNetwork") }
        }
    }

    @Test("value(of:) records an issue when the promise is still pending after the timeout")
    func valueOfPendingFails() async {
        // Given
        let (promise, seal) = Promise<Int>.pending()

        await withKnownIssue {
            // When
            let value = await PromiseExpectations.value(of: promise, timeout: 0.05)

            // Then
            #expect(value == nil)
        } matching: { issue in
            issue.comments.contains { $0.rawValue.contains("still pending after 0.05 s") }
        }
        seal.fulfill(0)
    }

    @Test(
        "seenWhenSettled reads the main actor's state at the moment a promise settles on the main queue, fulfilled or rejected",
        arguments: [false, true])
    @MainActor
    func seenWhenSettledOnMain(rejected: Bool) async {
        // Given: a value the main actor changes in the same step that settles the promise
        let box = MainBox()
        let (started, seal) = Promise<Void>.pending()
        let settledOnMain = started.map {
            box.value = 1
            if rejected { throw ServiceRequestError.noData }
            return box.value
        }

        // When
        seal.fulfill(())
        let seen = await PromiseExpectations.seenWhenSettled(settledOnMain) { box.value }

        // Then
        #expect(seen == 1)
    }

    @Test("seenWhenSettled records an issue when the promise settles off the main queue")
    @MainActor
    func seenWhenSettledOffMain() async {
        // Given
        let (promise, seal) = Promise<Int>.pending()
        let box = MainBox()

        await withKnownIssue {
            // When: it settles on a thread of its own, once the look is registered (the main
            // actor runs the task that opens the gate only after this step suspends)
            let gate = DispatchSemaphore(value: 0)
            Thread {
                gate.wait()
                seal.fulfill(0)
            }.start()
            Task { @MainActor in gate.signal() }
            let seen = await PromiseExpectations.seenWhenSettled(promise) { box.value }

            // Then
            #expect(seen == nil)
        } matching: { issue in
            issue.comments.contains { $0.rawValue.contains("off the main thread") }
        }
    }

    @Test("error(of:) gives the error of a rejected promise, with no issue")
    func errorOfRejected() async {
        // When
        let error = await PromiseExpectations.error(of: Promise<Int>(error: ServiceRequestError.noData))

        // Then
        #expect(error as? ServiceRequestError == .noData)
    }

    @Test("error(of:) records an issue when the promise is fulfilled")
    func errorOfFulfilledFails() async {
        await withKnownIssue {
            // When
            let error = await PromiseExpectations.error(of: Promise.value(3))

            // Then
            #expect(error == nil)
        } matching: { issue in
            issue.comments.contains { $0.rawValue.contains("fulfilled with 3") }
        }
    }
}

/// A value only the main actor touches.
@MainActor
final class MainBox {
    var value = 0
}
