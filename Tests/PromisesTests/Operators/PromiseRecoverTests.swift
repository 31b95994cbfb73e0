import Testing

@testable import Promises

@Suite("recover")
struct PromiseRecoverTests {
    @Test("recover replaces an error with a fallback promise")
    func recoverReplacesError() async throws {
        // When
        let recovered = Promise<Int>(error: TestError.boom).recover(on: .global()) { _ in Promise.value(0) }

        // Then
        #expect(try await recovered.value == 0)
    }

    @Test("recover can rethrow a different error")
    func recoverRethrows() async {
        // When
        let recovered = Promise<Int>(error: TestError.boom).recover(on: .global()) { _ -> Promise<Int> in
            throw TestError.other
        }

        // Then
        #expect(await outcome(of: recovered).failure as? TestError == .other)
    }

    @Test("recover is skipped when the promise is fulfilled")
    func recoverSkippedOnSuccess() async throws {
        // Given
        let ran = Recorder<String>()

        // When
        let recovered = Promise.value(3).recover(on: .global()) { error -> Promise<Int> in
            ran.append("\(error)")
            return Promise.value(0)
        }

        // Then
        #expect(try await recovered.value == 3)
        #expect(ran.all.isEmpty)
    }

    @Test("recover skips a cancellation unless the policy says all errors")
    func recoverPolicy() async throws {
        // Given
        let skipping = Promise<Int>(error: CancellationError()).recover(on: .global()) { _ in
            Promise.value(0)
        }
        let all = Promise<Int>(error: CancellationError()).recover(on: .global(), policy: .allErrors) { _ in
            .value(1)
        }

        // Then
        #expect(await outcome(of: skipping).failure is CancellationError)
        #expect(try await all.value == 1)
    }

    @Test("recover with a guarantee turns the promise into a guarantee, cancellation included")
    func recoverToGuarantee() async {
        // Given
        let (cancelled, _) = Promise<Int>.pending()
        cancelled.cancel()

        // When
        let fromError = Promise<Int>(error: TestError.boom).recover(on: .global()) { _ in Guarantee.value(-1)
        }
        let fromCancel = cancelled.recover(on: .global()) { _ in Guarantee.value(-2) }
        let fromValue = Promise.value(9).recover(on: .global()) { _ in Guarantee.value(-3) }

        // Then
        #expect(await fromError.value == -1)
        #expect(await fromCancel.value == -2)
        #expect(await fromValue.value == 9)
    }
}
