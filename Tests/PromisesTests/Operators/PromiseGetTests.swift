import Testing

@testable import Promises

@Suite("get")
struct PromiseGetTests {
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
}
