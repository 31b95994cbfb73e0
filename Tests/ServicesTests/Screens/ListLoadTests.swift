import Foundation
import PromiseMVPTesting
import Testing

@testable import Promises
@testable import Services

/// The load sequence every list runs, and the watch that follows it, with a view that records what
/// it was told and an observation the test feeds by hand.
@Suite("ListLoad")
@MainActor
struct ListLoadTests {
    /// A view that records each value shown, whether it was a copy being refreshed, and each error.
    final class RecordingView: Sendable {
        let shown = DeliveryRecorder<(value: [String], refreshing: Bool)>()
        let errors = DeliveryRecorder<ServiceRequestError>()
        let loading = DeliveryRecorder<Bool>()

        @MainActor var load: ListLoad<[String]> {
            ListLoad(
                loading: { self.loading.record($0) }, show: { self.shown.record(($0.value, $1)) },
                fail: { self.errors.record($0) })
        }
    }

    /// The observation's feed: the test hands it values as a database observation would.
    final class Feed: Sendable {
        let changed = Promise<@Sendable (Fetched<[String]>) -> Void>.pending()

        func send(_ value: [String]) {
            changed.promise.done(on: .inline) {
                $0(Fetched(value: value, source: .stored(savedAt: .distantPast)))
            }
        }
    }

    @Test("the copy is shown as refreshing, then the fresh value; the spinner goes on, then off")
    func copyThenFresh() async {
        // Given
        let view = RecordingView()
        // When
        let loaded = view.load.run { showingCopy in
            showingCopy(Fetched(value: ["copy"], source: .stored(savedAt: .distantPast)))
            return .value(Fetched(value: ["fresh"], source: .network))
        }
        // Then
        #expect(await PromiseExpectations.value(of: loaded) == ["fresh"])
        #expect(view.shown.all.map(\.value) == [["copy"], ["fresh"]])
        #expect(view.shown.all.map(\.refreshing) == [true, false])
        #expect(view.loading.all == [true, false])
    }

    @Test("a cancelled load shows no error; a failed one shows it")
    func cancelledIsNotShown() async {
        // Given
        let view = RecordingView()
        // When
        _ = await PromiseExpectations.error(of: view.load.run { _ in Promise(error: CancellationError()) })
        _ = await PromiseExpectations.error(
            of: view.load.run { _ in Promise(error: ServiceRequestError.noData) })
        // Then
        #expect(view.errors.all == [.noData])
    }

    @Test(
        "a value observed while the load runs is shown after the load's own; an equal one is not shown again")
    func changeDuringTheLoadIsShownAfterIt() async {
        // Given: a load the test ends, and an observation that reports a change meanwhile
        let view = RecordingView()
        let feed = Feed()
        let answer = Promise<Fetched<[String]>>.pending()
        let (loaded, _) = view.load.watch { _ in
            answer.promise
        } following: { changed in
            feed.changed.seal.fulfill(changed)
            return nil
        }
        feed.send(["a", "b"])
        // When: the load ends with what it read before the change
        answer.seal.fulfill(Fetched(value: ["a"], source: .network))
        _ = await PromiseExpectations.value(of: loaded)
        // Then: the load's value, then the change
        #expect(await view.shown.next()?.value == ["a"])
        #expect(await view.shown.next()?.value == ["a", "b"])

        // When: the observation reports the same value, then another
        feed.send(["a", "b"])
        feed.send(["b"])
        // Then: only the new one is shown
        #expect(await view.shown.next()?.value == ["b"])
        #expect(view.shown.all.count == 3)
    }
}
