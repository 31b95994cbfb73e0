import Dispatch
import Testing

@testable import Promises

/// A passive view, main-actor isolated like any UIKit view.
@MainActor
final class LabelView {
    var text = ""
    var error: String?
}

/// A presenter as an app writes one: main-actor isolated, and touching its view inside the
/// handlers without `assumeIsolated`, which only compiles because the handlers are `@MainActor`.
@MainActor
final class LabelPresenter {
    let view: LabelView

    init(view: LabelView) {
        self.view = view
    }

    func present(_ promise: Promise<Int>) -> Promise<String> {
        promise
            .map { "\($0) melodies" }
            .get { self.view.text = $0 }
            .catch { self.view.error = "\($0)" }
    }
}

/// Without `on:`, handlers are `@MainActor` closures run on the main queue.
@Suite("Main-actor handlers")
struct MainActorHandlerTests {
    @Test("a main-actor presenter updates its view before the promise it returns settles")
    @MainActor
    func presenterUpdatesView() async throws {
        // Given
        let view = LabelView()
        let presenter = LabelPresenter(view: view)
        let (promise, seal) = Promise<Int>.pending()

        // When
        let presented = presenter.present(promise)
        DispatchQueue.global().async { seal.fulfill(3) }

        // Then
        #expect(try await presented.value == "3 melodies")
        #expect(view.text == "3 melodies")
        #expect(view.error == nil)
    }

    @Test("a main-actor presenter shows the error, and the promise stays rejected")
    @MainActor
    func presenterShowsError() async {
        // Given
        let view = LabelView()
        let presenter = LabelPresenter(view: view)

        // When
        let presented = presenter.present(Promise(error: TestError.boom))

        // Then
        #expect(await outcome(of: presented).failure as? TestError == .boom)
        #expect(view.error == "boom")
        #expect(view.text.isEmpty)
    }

    @Test("a default handler runs on the main thread even when registered and settled elsewhere")
    func defaultHandlerRunsOnMainQueue() async throws {
        // Given
        let (promise, seal) = Promise<Int>.pending()

        // When
        let onMain = DispatchQueue.global().sync {
            promise.map { _ in MainQueueProbe.isMainQueue() }
        }
        DispatchQueue.global().async { seal.fulfill(1) }

        // Then
        #expect(try await onMain.value)
    }

    @Test("a default handler on a settled promise does not run inside the registering call")
    @MainActor
    func defaultHandlerIsNotSynchronous() async throws {
        // Given
        var ran = false

        // When
        let done = Promise.value(1).done { _ in ran = true }

        // Then
        #expect(!ran)
        try await done.value
        #expect(ran)
    }
}

/// Code outside the main actor can still register main-actor handlers: the closure is inferred
/// `@MainActor` from the parameter type, so it may touch the view; only what it captures must be
/// `Sendable`, because it crosses to the main actor.
nonisolated func showCount(of promise: Promise<Int>, in view: LabelView) -> Promise<Void> {
    promise.done { view.text = "\($0) from outside" }
}
