import Testing

@testable import Promises

/// The "full recover" of a promise of nothing: a body that returns nothing and cannot throw sees
/// every error, cancellation included, and what comes out is a guarantee.
@Suite("recover on a promise of nothing: the full recover")
struct VoidFullRecoverTests {
    @Test("a cancellation reaches the body and the chain after it runs")
    func cancellationIsRecovered() async {
        // Given
        let seen = Recorder<Bool>()
        let cancelled = Promise<Void>(error: CancellationError())

        // When
        let recovered = cancelled.recover(on: .global()) { error in seen.append(error.isCancellation) }
        await recovered.value

        // Then
        #expect(typeName(recovered) == "Guarantee<()>")
        #expect(seen.all == [true])
    }

    @Test("any other error reaches the body too")
    func errorIsRecovered() async {
        // Given
        let seen = Recorder<TestError?>()

        // When
        let recovered = Promise<Void>(error: TestError.boom).recover(on: .global()) { error in
            seen.append(error as? TestError)
        }
        await recovered.value

        // Then
        #expect(seen.all == [.boom])
    }

    @Test("a fulfilled promise skips the body")
    func fulfilledSkipsBody() async {
        // Given
        let seen = Recorder<String>()

        // When
        let recovered = Promise<Void>().recover(on: .global()) { error in seen.append("\(error)") }
        await recovered.value

        // Then
        #expect(seen.all.isEmpty)
    }

    @Test("on the main actor, a cancellation reaches the body")
    @MainActor
    func mainActorCancellationIsRecovered() async {
        // Given
        var seen: [Bool] = []
        let cancelled = Promise<Void>(error: CancellationError())

        // When
        await cancelled.recover { error in seen.append(error.isCancellation) }.value

        // Then
        #expect(seen == [true])
    }

    @Test("with a policy the body may throw, and the result is a promise that skips cancellations")
    func policyFormSkipsCancellation() async {
        // Given
        let seen = Recorder<String>()

        // When
        let recovered = Promise<Void>(error: CancellationError()).recover(
            on: .global(), policy: .allErrorsExceptCancellation
        ) { error in seen.append("\(error)") }

        // Then
        #expect(await outcome(of: recovered).failure?.isCancellation == true)
        #expect(seen.all.isEmpty)
    }

    @Test("a body of several statements that says it returns nothing is the full recover")
    func severalStatementsTypedVoid() async {
        // Given
        let seen = Recorder<String>()

        // When
        let recovered = Promise<Void>(error: TestError.boom).recover(on: .global()) { error -> Void in
            seen.append("first")
            seen.append("\(error)")
        }
        await recovered.value

        // Then
        #expect(seen.all == ["first", "boom"])
    }

    private func typeName<T>(_ value: T) -> String {
        "\(type(of: value))"
    }
}
