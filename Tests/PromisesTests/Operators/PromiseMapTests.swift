import Testing

@testable import Promises

@Suite("map and compactMap")
struct PromiseMapTests {
    @Test("map transforms the value")
    func mapTransforms() async throws {
        // When
        let mapped = Promise.value(3).map(on: .global()) { "\($0) melodies" }

        // Then
        #expect(try await mapped.value == "3 melodies")
    }

    @Test("a throwing map rejects with its error")
    func throwingMapRejects() async {
        // When
        let mapped = Promise.value(3).map(on: .global()) { _ -> Int in throw TestError.boom }

        // Then
        #expect(await outcome(of: mapped).failure as? TestError == .boom)
    }

    @Test("compactMap passes a non-nil result on")
    func compactMapKeepsValue() async throws {
        // When
        let mapped = Promise.value("42").compactMap(on: .global()) { Int($0) }

        // Then
        #expect(try await mapped.value == 42)
    }

    @Test("compactMap rejects with compactMapReturnedNil when the transform finds nothing")
    func compactMapRejectsNil() async {
        // When
        let mapped = Promise.value("forty-two").compactMap(on: .global()) { Int($0) }

        // Then
        #expect(await outcome(of: mapped).failure as? PromiseError == .compactMapReturnedNil)
    }

    @Test("map and compactMap pass a rejection on without running")
    func rejectionSkipsTransforms() async {
        // Given
        let ran = Recorder<String>()
        let rejected = Promise<String>(error: TestError.boom)

        // When
        let mapped = rejected.map(on: .global()) { value -> String in
            ran.append(value)
            return value
        }
        let compacted = rejected.compactMap(on: .global()) { value -> Int? in
            ran.append(value)
            return nil
        }

        // Then
        #expect(await outcome(of: mapped).failure as? TestError == .boom)
        #expect(await outcome(of: compacted).failure as? TestError == .boom)
        #expect(ran.all.isEmpty)
    }
}
