import Dispatch
import Testing

@testable import Promises

/// Code as a PromiseKit user writes it, compiling and behaving as it does in PromiseKit. Handlers
/// without `on:` run on the main actor, as they do there on the main queue.
@Suite("Migrating from PromiseKit")
@MainActor
struct MigratingFromPromiseKitTests {
    enum Failure: Error, Equatable {
        case boom
    }

    // MARK: A guarantee goes wherever a promise goes

    @Test("then { _ in after(seconds:) } and then { Guarantee.value }")
    func thenReturningAGuarantee() async throws {
        let waited = try await Promise.value(1).then { _ in after(seconds: 0) }.map { "waited" }.value
        let one = try await Promise.value(()).then { Guarantee.value(1) }.value
        #expect(waited == "waited")
        #expect(one == 1)
    }

    @Test("guarantee.then { promise } is a promise, and its rejection comes through")
    func guaranteeThenPromise() async {
        let chained = Guarantee.value(2).then { value in Promise<Int>(error: Failure.boom) }
        await #expect(throws: Failure.boom) { try await chained.value }
        let doubled = try? await Guarantee.value(2).then { Promise.value($0 * 2) }.value
        #expect(doubled == 4)
    }

    @Test("a throwing guarantee.map is a promise; a non-throwing one stays a guarantee")
    func throwingGuaranteeMap() async {
        let failing: Promise<Int> = Guarantee.value(1).map { _ in throw Failure.boom }
        await #expect(throws: Failure.boom) { try await failing.value }
        let kept: Guarantee<Int> = Guarantee.value(1).map { $0 + 1 }
        #expect(await kept.value == 2)
    }

    @Test("firstly { guarantee }")
    func firstlyGuarantee() async {
        let started: Guarantee<Int> = firstly { Guarantee.value(3) }
        #expect(await started.value == 3)
    }

    @Test("when(fulfilled: promise, guarantee) keeps each type")
    func whenMixed() async throws {
        let (number, text) = try await when(fulfilled: Promise.value(1), Guarantee.value("a")).value
        #expect(number == 1 && text == "a")
    }

    @Test("race(g1, g2) is a guarantee of the first")
    func raceGuarantees() async {
        let (slow, _) = Guarantee<Int>.pending()
        #expect(await race(slow, Guarantee.value(5)).value == 5)
    }

    @Test("when(guarantees:) waits for every guarantee")
    func whenGuarantees() async {
        let (late, resolve) = Guarantee<Void>.pending()
        let all = when(guarantees: [Guarantee.value(()), late])
        #expect(all.isPending)
        resolve(())
        await all.value
        #expect(!all.isPending)
        await when(guarantees: Guarantee.value(()), Guarantee.value(())).value
    }

    // MARK: Shapes PromiseKit code takes

    @Test("Promise() is a fulfilled promise of nothing")
    func emptyPromise() async throws {
        let started = Promise()
        #expect(started.isFulfilled)
        try await started.then { Promise.value(7) }.done { #expect($0 == 7) }.value
    }

    @Test("after(.milliseconds(n)) waits, then fulfils")
    func afterInterval() async {
        let short = after(.milliseconds(1))
        await short.value
        #expect(!short.isPending)
        #expect(after(.never).isPending)
    }

    @Test("a DispatchTimeInterval is counted in seconds as DispatchQueue counts it")
    func intervalSeconds() {
        #expect(DispatchTimeInterval.seconds(2).inSeconds == 2)
        #expect(DispatchTimeInterval.milliseconds(250).inSeconds == 0.25)
        #expect(DispatchTimeInterval.microseconds(1_500).inSeconds == 0.0015)
        #expect(DispatchTimeInterval.nanoseconds(2_000_000).inSeconds == 0.002)
        #expect(DispatchTimeInterval.never.inSeconds == nil)
    }

    @Test("recover on a Promise<Void> whose body returns nothing handles the error, or rethrows")
    func recoverVoid() async {
        let handled: Guarantee<Void> = Promise<Void>(error: Failure.boom).recover { error in
            #expect(error as? Failure == .boom)
        }
        await handled.value
        #expect(!handled.isPending)
        let rethrown = Promise<Void>(error: Failure.boom).recover { error -> Void in
            guard error as? Failure != .boom else { throw error }
        }
        await #expect(throws: Failure.boom) { try await rethrown.value }
    }

    @Test("seal.resolve(value, error) for callback APIs: the error wins, then the value, else neither")
    func resolveValueError() async throws {
        let fulfilled = Promise<Int> { seal in seal.resolve(1, nil) }
        let rejected = Promise<Int> { seal in seal.resolve(1, Failure.boom) }
        let neither = Promise<Int> { seal in seal.resolve(nil, nil) }
        #expect(try await fulfilled.value == 1)
        await #expect(throws: Failure.boom) { try await rejected.value }
        await #expect(throws: PromiseError.invalidCallingConvention) { try await neither.value }
    }

    @Test("when(resolved:) with several arguments gives every outcome")
    func whenResolvedVariadic() async throws {
        let results = await when(resolved: Promise.value(1), Promise(error: Failure.boom)).value
        #expect(results.count == 2)
        #expect(try results[0].get() == 1)
        #expect(throws: Failure.boom) { try results[1].get() }
    }

    @Test("when(fulfilled:) over promises of nothing is a promise of nothing")
    func whenFulfilledVoid() async throws {
        let all: Promise<Void> = when(fulfilled: [Promise(), after(seconds: 0).asPromise()])
        try await all.value
        let failing: Promise<Void> = when(fulfilled: [Promise(), Promise(error: Failure.boom)])
        await #expect(throws: Failure.boom) { try await failing.value }
    }

    // MARK: The sequence helpers

    @Test("mapValues, flatMapValues, compactMapValues, filterValues, sortedValues")
    func sequenceMaps() async throws {
        let numbers = Promise.value([3, 1, 2])
        #expect(try await numbers.mapValues { $0 * 10 }.value == [30, 10, 20])
        #expect(try await numbers.flatMapValues { [$0, $0] }.value == [3, 3, 1, 1, 2, 2])
        #expect(try await numbers.compactMapValues { $0 == 1 ? nil : $0 }.value == [3, 2])
        #expect(try await numbers.filterValues { $0 > 1 }.value == [3, 2])
        #expect(try await numbers.sortedValues().value == [1, 2, 3])
        #expect(try await numbers.mapValues(on: .global()) { $0 + 1 }.value == [4, 2, 3])
    }

    @Test("thenMap and thenFlatMap wait for a promise per element, in order")
    func thenMaps() async throws {
        let numbers = Promise.value([1, 2])
        #expect(try await numbers.thenMap { Promise.value($0 * 2) }.value == [2, 4])
        #expect(try await numbers.thenFlatMap { Promise.value([$0, -$0]) }.value == [1, -1, 2, -2])
        let failing = numbers.thenMap { $0 == 2 ? Promise<Int>(error: Failure.boom) : Promise.value($0) }
        await #expect(throws: Failure.boom) { try await failing.value }
    }

    @Test("firstValue and lastValue, and an empty sequence's error")
    func firstAndLast() async throws {
        #expect(try await Promise.value([1, 2, 3]).firstValue.value == 1)
        #expect(try await Promise.value([1, 2, 3]).lastValue.value == 3)
        await #expect(throws: PromiseError.emptySequence) {
            try await Promise.value([Int]()).firstValue.value
        }
        await #expect(throws: PromiseError.emptySequence) { try await Promise.value([Int]()).lastValue.value }
    }

    @Test("race(fulfilled:) passes over rejections; it rejects only when all did")
    func raceFulfilled() async throws {
        let (slow, seal) = Promise<Int>.pending()
        let winner = race(fulfilled: [Promise(error: Failure.boom), slow])
        #expect(winner.isPending)
        seal.fulfill(8)
        #expect(try await winner.value == 8)
        let none = race(fulfilled: [Promise<Int>(error: Failure.boom), Promise(error: Failure.boom)])
        await #expect(throws: Failure.boom) { try await none.value }
        await #expect(throws: PromiseError.emptyRace) { try await race(fulfilled: [Promise<Int>]()).value }
    }

    @Test("ensureThen waits for its clean-up, then passes the outcome on")
    func ensureThen() async {
        let (started, signalStarted) = Guarantee<Void>.pending()
        let (cleanedUp, finish) = Guarantee<Void>.pending()
        let passed = Promise<Int>(error: Failure.boom).ensureThen {
            signalStarted(())
            return cleanedUp
        }
        await started.value
        #expect(passed.isPending)  // the clean-up has not finished
        finish(())
        await #expect(throws: Failure.boom) { try await passed.value }
    }
}
