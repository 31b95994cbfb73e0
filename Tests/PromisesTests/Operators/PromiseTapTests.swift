import Testing

@testable import Promises

@Suite("tap")
struct PromiseTapTests {
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
}
