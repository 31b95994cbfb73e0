import Testing

@testable import Promises

@Suite("done")
struct PromiseDoneTests {
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

}
