import Testing

@testable import Promises

/// Which `recover` (and `then`) a closure picks, by the shape of what it returns, as in
/// PromiseKit: a closure that returns a promise is never taken as one that returns nothing;
/// `.value(x)` without a type means a promise in `then` and a guarantee in `recover` (which then
/// handles every error, cancellation included).
@Suite("recover: the overload a closure picks")
struct RecoverOverloadRankingTests {
    @Test("a promise of nothing recovered with a closure returning a rejected promise is rejected by it")
    func voidRecoverReturningPromiseAdoptsIt() async {
        // Given
        let failing = Promise<Void>(error: TestError.boom)

        // When
        let recovered = failing.recover(on: .global()) { _ in Promise<Void>(error: TestError.other) }

        // Then
        #expect(typeName(recovered) == "Promise<()>")
        #expect(await outcome(of: recovered).failure as? TestError == .other)
    }

    @Test("the same on the main actor")
    @MainActor
    func voidRecoverOnMainActorReturningPromiseAdoptsIt() async {
        // Given
        let failing = Promise<Void>(error: TestError.boom)

        // When
        let recovered = failing.recover { _ in Promise<Void>(error: TestError.other) }

        // Then
        #expect(await outcome(of: recovered).failure as? TestError == .other)
    }

    @Test("a promise of nothing recovered with a pending promise waits for it")
    func voidRecoverWaitsForReturnedPromise() async {
        // Given
        let (later, seal) = Promise<Void>.pending()
        let failing = Promise<Void>(error: TestError.boom)

        // When
        let recovered = failing.recover(on: .global()) { _ in later }
        seal.reject(TestError.other)

        // Then
        #expect(await outcome(of: recovered).failure as? TestError == .other)
    }

    @Test("recover { .value(x) } gives a guarantee that handles every error, cancellation included")
    func implicitValueInRecoverIsAGuarantee() async throws {
        // When
        let onQueue = Promise<Int>(error: TestError.boom).recover(on: .global()) { _ in .value(7) }
        let cancelled = Promise<Int>(error: CancellationError()).recover(on: .global()) { _ in .value(2) }
        let voidOnQueue = Promise<Void>(error: TestError.boom).recover(on: .global()) { _ in .value(()) }

        // Then
        #expect(typeName(onQueue) == "Guarantee<Int>")
        #expect(typeName(voidOnQueue) == "Guarantee<()>")
        #expect(await onQueue.value == 7)
        #expect(await cancelled.value == 2)
    }

    @Test("recover { Promise.value(x) } gives a promise, which lets a cancellation pass")
    func namedPromiseValueInRecoverIsAPromise() async throws {
        // When
        let recovered = Promise<Int>(error: TestError.boom).recover(on: .global()) { _ in Promise.value(7) }
        let cancelled = Promise<Int>(error: CancellationError()).recover(on: .global()) { _ in
            Promise.value(2)
        }

        // Then
        #expect(typeName(recovered) == "Promise<Int>")
        #expect(try await recovered.value == 7)
        #expect(await outcome(of: cancelled).failure is CancellationError)
    }

    @Test("recover with a body of several statements returning a promise gives a promise")
    func severalStatementsReturningAPromise() async throws {
        // When
        let recovered = Promise<Int>(error: TestError.boom).recover(on: .global()) { error in
            let fallback = error is TestError ? 3 : 0
            return Promise.value(fallback)
        }

        // Then
        #expect(typeName(recovered) == "Promise<Int>")
        #expect(try await recovered.value == 3)
    }

    @Test("then { .value(x) } compiles and gives a promise")
    func implicitValueInThenIsAPromise() async throws {
        // When
        let onQueue = Promise.value(1).then(on: .global()) { x in .value(x + 1) }

        // Then
        #expect(typeName(onQueue) == "Promise<Int>")
        #expect(try await onQueue.value == 2)
    }

    @Test("then { .value(x) } on the main actor gives a promise too")
    @MainActor
    func implicitValueInMainActorThenIsAPromise() async throws {
        // When
        let chained = Promise.value(1).then { x in .value(x + 1) }
        let recovered = Promise<Int>(error: CancellationError()).recover { _ in .value(0) }

        // Then
        #expect(try await chained.value == 2)
        #expect(await recovered.value == 0)
    }

    @Test("a body that only throws maps the error, on a queue and on the main actor, of any value")
    @MainActor
    func bodyThatOnlyThrowsMapsTheError() async {
        // When
        let onQueue = Promise<Int>(error: TestError.boom).recover(on: .global()) { _ in throw TestError.other
        }
        let voidOnQueue = Promise<Void>(error: TestError.boom).recover(on: .inline) { _ in
            throw TestError.other
        }
        let onMain = Promise<Int>(error: TestError.boom).recover { _ in throw TestError.other }
        let voidOnMain = Promise<Void>(error: TestError.boom).recover { _ in throw TestError.other }

        // Then
        for promise in [onQueue.asVoid(), voidOnQueue, onMain.asVoid(), voidOnMain] {
            #expect(await outcome(of: promise).failure as? TestError == .other)
        }
    }

    @Test("recover(policy:) { .value(x) } gives a promise: the guarantee's recover takes no policy")
    func valueWithAPolicyIsAPromise() async throws {
        // When
        let recovered = Promise<Int>(error: CancellationError()).recover(on: .global(), policy: .allErrors) {
            _ in
            .value(4)
        }

        // Then
        #expect(typeName(recovered) == "Promise<Int>")
        #expect(try await recovered.value == 4)
    }

    @Test("a closure returning a guarantee still gives a guarantee")
    func recoverReturningGuaranteeGivesGuarantee() async {
        // When
        let recovered = Promise<Int>(error: CancellationError()).recover(on: .global()) { _ in
            Guarantee.value(5)
        }

        // Then
        #expect(typeName(recovered) == "Guarantee<Int>")
        #expect(await recovered.value == 5)
    }

    @Test("a promise of nothing recovered with a closure returning a pending guarantee waits for it")
    func voidRecoverReturningGuaranteeWaitsForIt() async {
        // Given
        let (later, resolve) = Guarantee<Void>.pending()
        let failing = Promise<Void>(error: TestError.boom)

        // When: inline, so the body has run when recover returns
        let recovered = failing.recover(on: .inline) { _ in later }
        let pendingUntilResolved = recovered.isPending
        resolve(())
        await recovered.value

        // Then
        #expect(pendingUntilResolved)
    }

    @Test("a body returning nothing that may throw gives a promise, rethrowing rejects it")
    func voidRecoverThatThrowsGivesPromise() async {
        // When
        let recovered = Promise<Void>(error: TestError.boom).recover(on: .global()) { error in throw error }

        // Then
        #expect(typeName(recovered) == "Promise<()>")
        #expect(await outcome(of: recovered).failure as? TestError == .boom)
    }

    private func typeName<T>(_ value: T) -> String {
        "\(type(of: value))"
    }
}
