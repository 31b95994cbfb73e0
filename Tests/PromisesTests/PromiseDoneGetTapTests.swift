import Testing

@testable import Promises

@Suite("done, get, tap and asVoid")
struct PromiseDoneGetTapTests {
    @Test("done consumes the value and fulfills with Void after the body ran")
    func doneConsumes() async throws {
        // Given
        let seen = Recorder<Int>()

        // When
        let done = Promise.value(5).done(on: .global()) { seen.append($0) }

        // Then
        try await done.value
        #expect(seen.all == [5])
    }

    @Test("a throwing done rejects")
    func throwingDoneRejects() async {
        // When
        let done = Promise.value(5).done(on: .global()) { _ in throw TestError.boom }

        // Then
        #expect(await outcome(of: done).failure as? TestError == .boom)
    }

    @Test("get sees the value and passes it on unchanged")
    func getPassesValueOn() async throws {
        // Given
        let seen = Recorder<Int>()

        // When
        let got = Promise.value(8).get(on: .global()) { seen.append($0) }

        // Then
        #expect(try await got.value == 8)
        #expect(seen.all == [8])
    }

    @Test("a throwing get rejects")
    func throwingGetRejects() async {
        // When
        let got = Promise.value(8).get(on: .global()) { _ in throw TestError.other }

        // Then
        #expect(await outcome(of: got).failure as? TestError == .other)
    }

    @Test("tap sees a value or an error and passes it on unchanged")
    func tapSeesBoth() async throws {
        // Given
        let seen = Recorder<String>()

        // When
        let fulfilled = Promise.value(1).tap(on: .global()) { seen.append("\($0)") }
        let rejected = Promise<Int>(error: TestError.boom).tap(on: .global()) { result in
            seen.append(result.failure.map { "\($0)" } ?? "no error")
        }

        // Then
        #expect(try await fulfilled.value == 1)
        #expect(await outcome(of: rejected).failure as? TestError == .boom)
        #expect(Set(seen.all) == ["success(1)", "boom"])
    }

    @Test("asVoid keeps whether and how the promise settled")
    func asVoidKeepsOutcome() async throws {
        // When
        let fulfilled = Promise.value(1).asVoid()
        let rejected = Promise<Int>(error: TestError.boom).asVoid()

        // Then
        try await fulfilled.value
        #expect(await outcome(of: rejected).failure as? TestError == .boom)
    }
}
