import Testing

@testable import Promises

/// `done` on a guarantee with a body that may throw gives a promise; one that cannot keeps a
/// guarantee.
@Suite("Guarantee.done with a throwing body")
struct GuaranteeThrowingDoneTests {
    @Test("a body that throws rejects the promise done gives")
    func throwingBodyRejects() async {
        // When
        let done = Guarantee.value(1).done(on: .global()) { _ in throw TestError.boom }

        // Then
        #expect("\(type(of: done))" == "Promise<()>")
        #expect(await outcome(of: done).failure as? TestError == .boom)
    }

    @Test("a body that may throw but does not fulfills it")
    func throwingBodyThatReturnsFulfills() async {
        // Given
        let seen = Recorder<Int>()

        // When
        let done = Guarantee.value(2).done(on: .global()) { value throws in seen.append(value) }

        // Then
        #expect(await outcome(of: done).failure == nil)
        #expect(seen.all == [2])
    }

    @Test("a body that cannot throw keeps a guarantee")
    func nonThrowingBodyKeepsGuarantee() async {
        // When
        let done = Guarantee.value(1).done(on: .global()) { _ in }

        // Then
        #expect("\(type(of: done))" == "Guarantee<()>")
    }

    @Test("on the main actor too")
    @MainActor
    func mainActor() async {
        // When
        let done = Guarantee.value(1).done { _ in throw TestError.other }

        // Then
        #expect(await outcome(of: done).failure as? TestError == .other)
    }
}
