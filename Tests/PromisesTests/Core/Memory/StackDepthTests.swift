import Dispatch
import Testing

@testable import Promises

/// Long chains settle and go away without growing the stack with their length: each test runs on
/// a thread whose stack is 512 KiB, a GCD worker thread's size on Apple platforms, and crashes the
/// test process if the chain recursed per step.
@Suite("Stack depth", .serialized)
struct StackDepthTests {
    /// As many steps as the issue asked for: far more than 512 KiB could hold frames for.
    static let steps = 100_000

    @Test("a chain of inline maps settles on a small stack, in order, and is freed")
    func inlineChainSettles() async {
        // Given
        let (root, seal) = Promise<Int>.pending()
        weak var weakLast: LockedBuffer<PromiseState<Int>>?
        var last = root
        for _ in 0..<Self.steps {
            last = last.map(on: .inline) { $0 + 1 }
        }
        weakLast = last.storage
        let end = last

        // When
        await onSmallStack { seal.fulfill(0) }

        // Then
        #expect(end.result?.success == Self.steps)
        last = root
        _ = consume end
        #expect(weakLast == nil)
    }

    @Test("two deep inline chains settled one after the other on one thread both settle")
    func deepChainsInTurnOnOneThread() async {
        // Given: two chains deeper than the trampoline's limit, which puts the rest of each off
        func chain() -> (Promise<Int>, Seal<Int>) {
            let (root, seal) = Promise<Int>.pending()
            var last = root
            for _ in 0..<100 { last = last.map(on: .inline) { $0 + 1 } }
            return (last, seal)
        }
        let (first, firstSeal) = chain()
        let (second, secondSeal) = chain()

        // When: both settled on the same thread, one after the other
        await onSmallStack {
            firstSeal.fulfill(0)
            secondSeal.fulfill(0)
        }

        // Then: the second too, though the first left the thread after putting work off
        #expect(first.result?.success == 100)
        #expect(second.result?.success == 100)
    }

    @Test("a handler that a step deep in an inline chain adds to a promise settled already runs")
    func handlerAddedDeepToASettledPromiseRuns() async {
        // Given: a promise settled already, and a chain deeper than the trampoline's limit whose
        // every step adds a handler to it (beyond the limit, the handler is put off)
        let (settled, settling) = Promise<Int>.pending()
        settling.fulfill(1)
        let ran = Locked(0)
        let (root, seal) = Promise<Int>.pending()
        var last = root
        for _ in 0..<100 {
            last = last.map(on: .inline) { value in
                settled.tap(on: .inline) { _ in ran.withLock { $0 += 1 } }.cauterize()
                return value + 1
            }
        }
        let end = last

        // When
        await onSmallStack { seal.fulfill(0) }

        // Then: every step's handler ran, once
        #expect(end.result?.success == 100)
        #expect(ran.withLock { $0 } == 100)
    }

    @Test("a rejection passes down a chain of steps on a queue without a hop per step")
    func rejectionPassesDown() async {
        // Given
        let queue = DispatchQueue(label: "stack-depth.rejection")
        let (root, seal) = Promise<Int>.pending()
        var last = root
        for _ in 0..<Self.steps {
            last = last.map(on: queue) { $0 + 1 }
        }
        let end = last

        // When
        await onSmallStack { seal.reject(TestError.boom) }

        // Then
        #expect(end.result?.failure as? TestError == .boom)
    }

    @Test("nested inline thens, each returning the next, are built and settle on a small stack")
    func nestedThensSettle() async {
        // Given
        let (root, seal) = Promise<Int>.pending()
        @Sendable func nested(_ remaining: Int) -> Promise<Int> {
            guard remaining > 0 else { return root }
            return Promise.value(remaining).then(on: .inline) { _ in nested(remaining - 1) }
                .map(on: .inline) { $0 + 1 }
        }
        let built = Locked<Promise<Int>?>(nil)
        await onSmallStack { built.withLock { $0 = nested(Self.steps) } }
        let outer = built.withLock { $0 }

        // When
        await onSmallStack { seal.fulfill(0) }

        // Then
        #expect(outer?.result?.success == Self.steps)
        built.withLock { $0 = nil }
    }

    @Test("chains shorter than the nesting limit still run their handlers depth first")
    func shortChainsKeepTheirOrder() {
        // Given
        let order = Recorder<String>()
        let (root, seal) = Promise<Int>.pending()
        root.map(on: .inline) { $0 }.done(on: .inline) { _ in order.append("child of first") }
        root.done(on: .inline) { _ in order.append("second") }

        // When
        seal.fulfill(1)

        // Then
        #expect(order.all == ["child of first", "second"])
    }
}
