import Dispatch
import Testing

@testable import Promises

/// `then`: the next asynchronous step, and the rules every handler follows (Promises/A+ 2.2).
@Suite("then")
struct PromiseThenTests {
    @Test("2.2.2 the handler runs once, after fulfilment, with the value")
    func handlerRunsOnceWithValue() async throws {
        // Given
        let (promise, seal) = Promise<Int>.pending()
        let calls = Recorder<Int>()
        let next = promise.then(on: .global()) { value -> Promise<Int> in
            calls.append(value)
            return .value(value * 2)
        }
        #expect(calls.all.isEmpty)

        // When
        seal.fulfill(21)
        seal.fulfill(22)

        // Then
        #expect(try await next.value == 42)
        #expect(calls.all == [21])
    }

    @Test("2.2.6 handlers run in the order they were registered")
    func handlersRunInRegistrationOrder() async {
        // Given
        let (promise, seal) = Promise<Int>.pending()
        let queue = DispatchQueue(label: "order")
        let order = Recorder<Int>()
        var done: [Promise<Void>] = []
        for index in 0..<50 {
            done.append(promise.done(on: queue) { _ in order.append(index) })
        }

        // When
        seal.fulfill(1)
        for index in 50..<100 {
            done.append(promise.done(on: queue) { _ in order.append(index) })
        }

        // Then
        _ = await when(resolved: done).value
        #expect(order.all == Array(0..<100))
    }

    @Test("2.2.6 handlers registered while the earlier ones run still run, after them")
    func handlersRegisteredWhileRunningRunAfterTheEarlierOnes() async throws {
        // Given: the first handler registers two more, while the promise is running its handlers
        let (promise, seal) = Promise<Int>.pending()
        let order = Recorder<String>()
        let late = Recorder<Promise<Void>>()
        let first = promise.done(on: .inline) { _ in
            order.append("first")
            for name in ["late 1", "late 2"] {
                late.append(promise.done(on: .inline) { _ in order.append(name) })
            }
        }
        let second = promise.done(on: .inline) { _ in order.append("second") }

        // When
        seal.fulfill(1)

        // Then
        _ = try await when(fulfilled: [first, second] + late.all).timeout(seconds: 10).value
        #expect(order.all == ["first", "second", "late 1", "late 2"])
    }

    @Test("2.2.4 a handler registered on a settled promise runs later, not inside the registering call")
    func handlerOnSettledPromiseRunsLater() async throws {
        // Given
        let queue = MarkedQueue("settled")
        let ranOnQueue = Recorder<Bool>()
        let promise = Promise.value(1)

        // When
        let done = queue.queue.sync {
            let done = promise.done(on: queue.queue) { _ in ranOnQueue.append(queue.isCurrent) }
            // Then: still inside the call that registered it, the handler has not run.
            #expect(ranOnQueue.all.isEmpty)
            return done
        }

        // Then
        try await done.value
        #expect(ranOnQueue.all == [true])
    }

    @Test("2.2.7 then adopts the promise its handler returns")
    func thenAdoptsReturnedPromise() async throws {
        // Given
        let (inner, innerSeal) = Promise<String>.pending()
        let chained = Promise.value(1).then(on: .global()) { _ in inner }

        // When
        DispatchQueue.global().async { innerSeal.fulfill("adopted") }

        // Then
        #expect(try await chained.value == "adopted")
    }

    @Test("2.2.7 then rejects like the promise its handler returns")
    func thenAdoptsRejection() async {
        // Given
        let chained = Promise.value(1).then(on: .global()) { _ in Promise<Int>(error: TestError.other) }

        // Then
        #expect(await outcome(of: chained).failure as? TestError == .other)
    }

    @Test("2.2.7.2 an error thrown in the handler rejects the chain and skips later steps")
    func thrownErrorRejectsChain() async {
        // Given
        let skipped = Recorder<Int>()

        // When
        let chained = Promise.value(1)
            .then(on: .global()) { _ -> Promise<Int> in throw TestError.boom }
            .map(on: .global()) { value -> Int in
                skipped.append(value)
                return value
            }

        // Then
        #expect(await outcome(of: chained).failure as? TestError == .boom)
        #expect(skipped.all.isEmpty)
    }

    @Test("2.2.7.4 a rejection passes through then without running its handler")
    func rejectionPassesThrough() async {
        // Given
        let ran = Recorder<Int>()

        // When
        let chained = Promise<Int>(error: TestError.boom).then(on: .global()) { value -> Promise<Int> in
            ran.append(value)
            return .value(value)
        }

        // Then
        #expect(await outcome(of: chained).failure as? TestError == .boom)
        #expect(ran.all.isEmpty)
    }

    @Test("on: runs the handler on the queue it names")
    func handlerRunsOnChosenQueue() async throws {
        // Given
        let queue = MarkedQueue("chosen")

        // When
        let onQueue = try await Promise.value(1).then(on: queue.queue) { _ in Promise.value(queue.isCurrent) }
            .value

        // Then
        #expect(onQueue)
    }

    @Test("on: .inline runs the handler in the fulfilling call, without a hop")
    func inlineHandlerRunsWithoutHop() throws {
        // Given
        let (promise, seal) = Promise<Int>.pending()
        let ran = Recorder<Int>()
        let chained = promise.then(on: .inline) { value -> Promise<Int> in
            ran.append(value)
            return .value(value + 1)
        }

        // When
        seal.fulfill(1)

        // Then: no waiting needed, everything ran inside fulfill.
        #expect(ran.all == [1])
        #expect(try chained.result?.get() == 2)
    }
}
