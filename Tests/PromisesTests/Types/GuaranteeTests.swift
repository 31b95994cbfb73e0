import Dispatch
import Testing

@testable import Promises

@Suite("Guarantee")
struct GuaranteeTests {
    @Test("a guarantee settles once with the first value it is given")
    func settlesOnce() async {
        // When
        let guarantee = Guarantee<Int> { resolve in
            resolve(1)
            resolve(2)
        }

        // Then
        #expect(await guarantee.value == 1)
        #expect(guarantee.resolvedValue == 1)
    }

    @Test("map, then, get and done chain guarantees without errors")
    func operatorsChain() async {
        // Given
        let seen = Recorder<String>()

        // When
        let chained = Guarantee.value(2)
            .map(on: .global()) { $0 * 3 }
            .then(on: .global()) { value in Guarantee.value("\(value)") }
            .get(on: .global()) { seen.append("get \($0)") }
            .done(on: .global()) { seen.append("done \($0)") }
        await chained.value

        // Then
        #expect(seen.all == ["get 6", "done 6"])
    }

    @Test("main-actor handlers on a guarantee run on the main actor")
    @MainActor
    func mainActorHandlers() async {
        // Given
        let view = LabelView()

        // When
        await Guarantee.value(4).map { "\($0)" }.done { view.text = $0 }.value

        // Then
        #expect(view.text == "4")
    }

    @Test("asPromise chains a guarantee into operators that can fail")
    func asPromise() async {
        // When
        let promise = Guarantee.value(1).asPromise().map(on: .global()) { _ -> Int in throw TestError.boom }

        // Then
        #expect(await outcome(of: promise).failure as? TestError == .boom)
    }

    @Test("cancelling a guarantee's promise view, or a chain on it, never rejects the guarantee")
    func guaranteeCannotBeRejected() async {
        // Given
        let (guarantee, resolve) = Guarantee<Int>.pending()

        // When
        guarantee.asPromise().cancel()
        guarantee.asPromise().map(on: .inline) { $0 + 1 }.cancel()
        Promise.value(0).then(on: .inline) { _ in guarantee.asPromise() }.cancel()
        resolve(7)

        // Then
        #expect(await guarantee.value == 7)
        #expect(guarantee.asPromise().result?.success == 7)
    }
}
