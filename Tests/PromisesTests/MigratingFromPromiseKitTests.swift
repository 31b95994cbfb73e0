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

}
