import Dispatch
import Testing

@testable import Promises

/// Many threads at once on the same promises: every handler still runs exactly once.
@Suite("Concurrency")
struct ConcurrencyTests {
    @Test("threads racing to fulfill, reject, cancel and register deliver each handler exactly once")
    func racingThreadsDeliverExactlyOnce() async {
        // Given
        let promiseCount = 500
        let handlersPerPromise = 8
        let pairs = (0..<promiseCount).map { _ in Promise<Int>.pending() }
        let deliveries = Counter()
        let chained = Locked<[Promise<Int>]>([])

        // When: per promise, some threads settle it in different ways while others register.
        DispatchQueue.concurrentPerform(iterations: promiseCount * (handlersPerPromise + 3)) { step in
            let (promise, seal) = pairs[step % promiseCount]
            switch step / promiseCount {
            case 0: seal.fulfill(step)
            case 1: seal.reject(TestError.boom)
            case 2: promise.cancel()
            default:
                let next = promise.tap(on: .inline) { _ in deliveries.increment() }
                chained.withLock { $0.append(next) }
            }
        }
        let all = chained.withLock { $0 }
        let results = await when(resolved: all).value

        // Then
        #expect(results.count == promiseCount * handlersPerPromise)
        #expect(deliveries.value == promiseCount * handlersPerPromise)
        for (promise, _) in pairs {
            #expect(!promise.isPending)
        }
    }

    @Test("handlers registered from many threads on one promise all run once, on their queue")
    func manyRegistrationsOnOnePromise() async {
        // Given
        let (promise, seal) = Promise<Int>.pending()
        let queue = MarkedQueue("concurrent registrations")
        let onQueue = Counter()
        let registered = Locked<[Promise<Void>]>([])

        // When
        DispatchQueue.concurrentPerform(iterations: 2_000) { index in
            if index == 1_000 { seal.fulfill(index) }
            let done = promise.done(on: queue.queue) { _ in
                if queue.isCurrent { onQueue.increment() }
            }
            registered.withLock { $0.append(done) }
        }
        _ = await when(resolved: registered.withLock { $0 }).value

        // Then
        #expect(onQueue.value == 2_000)
    }
}
