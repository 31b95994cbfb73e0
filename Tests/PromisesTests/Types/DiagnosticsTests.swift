import Foundation  // String.contains(_:) before macOS 13 / iOS 16
import Testing

@testable import Promises

/// Types only these tests create, so that their reports can be told from any other test's.
struct AbandonedMarker: Sendable {}
struct UnhandledMarker: Sendable {}
struct HandledMarker: Sendable {}
struct FinallyMarker: Sendable {}
struct DepthMarker: Sendable {}

/// Misuse is reported through the replaceable hook, never silently lost.
///
/// Serialized, because the hook is process-wide.
@Suite("Diagnostics", .serialized)
struct DiagnosticsTests {
    /// Installs a collector for the duration of `body` and returns what was reported about `marker`.
    func reports<Marker>(
        about marker: Marker.Type,
        during body: () async -> Void
    ) async -> [String] {
        let collected = Recorder<String>()
        PromiseDiagnostics.handler = { collected.append("\($0)") }
        defer { PromiseDiagnostics.handler = PromiseDiagnostics.standardError }
        await body()
        return collected.all.filter { $0.contains("\(marker)") }
    }

    @Test(
        "a pending promise with a cancellation handler and a map, tap or race step is freed when its seal is dropped, and reported once"
    )
    func droppedCancellableChainIsFreed() async {
        // Given
        weak var weakUpstream: LockedBuffer<PromiseState<DroppedMarker>>?
        weak var weakMapped: LockedBuffer<PromiseState<DroppedMarker>>?
        weak var weakRace: LockedBuffer<PromiseState<DroppedMarker>>?

        // When
        let lines = await reports(about: DroppedMarker.self) {
            let (upstream, seal) = Promise<DroppedMarker>.pending()
            seal.setCancellationHandler {}
            weakUpstream = upstream.storage
            weakMapped = upstream.map(on: .inline) { $0 }.storage
            _ = upstream.tap(on: .inline) { _ in }
            weakRace = race([upstream]).storage
        }

        // Then
        #expect(weakUpstream == nil)
        #expect(weakMapped == nil)
        #expect(weakRace == nil)
        #expect(lines.count == 1)
    }

    @Test("a pending chain of 100,000 steps dropped on a 512 KiB stack is freed, and its root reported once")
    func droppedLongChainIsFreed() async {
        // Given
        let chain = Locked<(seal: Seal<DepthMarker>, last: Promise<DepthMarker>)?>(nil)
        weak var weakRoot: LockedBuffer<PromiseState<DepthMarker>>?
        weak var weakLast: LockedBuffer<PromiseState<DepthMarker>>?
        do {
            let (root, seal) = Promise<DepthMarker>.pending()
            var last = root
            for _ in 0..<100_000 {
                last = last.map(on: .inline) { $0 }
            }
            weakRoot = root.storage
            weakLast = last.storage
            chain.withLock { $0 = (seal, last) }
        }

        // When
        let lines = await reports(about: DepthMarker.self) {
            await onSmallStack { chain.withLock { $0 = nil } }
        }

        // Then
        #expect(weakRoot == nil)
        #expect(weakLast == nil)
        #expect(lines.count == 1)
    }

    @Test("a million reports in one process all arrive, each as fast as the first: the hook never grows")
    func millionReports() async {
        // Given
        let counted = Locked(0)
        PromiseDiagnostics.handler = { diagnostic in
            // Other suites' promises may report meanwhile: only this test's marker counts.
            guard "\(diagnostic)".contains("MillionMarker") else { return }
            counted.withLock { $0 += 1 }
        }
        defer { PromiseDiagnostics.handler = PromiseDiagnostics.standardError }

        // When: reported, and the hook read, a million times each, on a thread of its own, not
        // the concurrency pool's two, which the rest of the suite waits on
        await onSmallStack {
            for _ in 0..<1_000_000 {
                PromiseDiagnostics.report(.deallocatedWhilePending(promiseType: "Promise<MillionMarker>"))
                _ = PromiseDiagnostics.handler
            }
        }

        // Then
        #expect(counted.withLock { $0 } == 1_000_000)
    }

    @Test("a promise dropped while pending is reported once, not once per promise chained to it")
    func abandonedPromiseIsReported() async {
        // When
        let lines = await reports(about: AbandonedMarker.self) {
            let (promise, _) = Promise<AbandonedMarker>.pending()
            _ = promise.map(on: .inline) { $0 }.map(on: .inline) { $0 }
        }

        // Then
        #expect(
            lines == [
                "Promise<AbandonedMarker> was deallocated while pending: its seal was dropped without settling it"
            ])
    }

    @Test("a rejection nobody handles is reported when the promise goes away")
    func unhandledRejectionIsReported() async {
        // When
        let lines = await reports(about: UnhandledMarker.self) {
            _ = Promise<UnhandledMarker>(error: TestError.boom)
        }

        // Then
        #expect(lines.count == 1)
        #expect(lines.first?.contains("nothing handled the error") == true)
        #expect(lines.first?.contains("TestError.boom") == true)
    }

    @Test("a rejection that went through catch, and a cancellation, are not reported")
    func handledRejectionIsNotReported() async {
        // When
        let lines = await reports(about: HandledMarker.self) {
            let caught = Promise<HandledMarker>(error: TestError.boom)
                .map(on: .inline) { $0 }
                .catch(on: .inline) { _ in }
                .map(on: .inline) { $0 }
            #expect(caught.isRejected)
            let (cancelled, _) = Promise<HandledMarker>.pending()
            cancelled.cancel()
        }

        // Then
        #expect(lines.isEmpty)
    }

    @Test("an error that reaches finally without a catch is reported")
    func finallyWithoutCatchReports() async {
        // When
        let lines = await reports(about: FinallyMarker.self) {
            await Promise<FinallyMarker>(error: TestError.other).finally(on: .inline) {}.value
        }

        // Then
        #expect(lines.count == 1)
        #expect(lines.first?.contains("TestError.other") == true)
    }
}
