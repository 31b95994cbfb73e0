import Testing

@testable import Promises

/// `seal.resolve` handed as it is to callback APIs of every shape PromiseKit's `Resolver` takes.
@Suite("Seal.resolve for callback APIs")
struct SealResolveTests {
    private enum Failure: Error { case boom }

    /// A callback API: calls `block` with what it was made with.
    private struct Fetcher<Block: Sendable>: Sendable {
        let call: @Sendable (Block) -> Void
    }

    @Test("(value, error) with a value always there: the error wins, else the value")
    func valueAlwaysThere() async throws {
        // Given
        let works = Fetcher<@Sendable (Int, (any Error)?) -> Void> { $0(2, nil) }
        let fails = Fetcher<@Sendable (Int, (any Error)?) -> Void> { $0(-1, Failure.boom) }

        // When
        let fulfilled = Promise<Int> { seal in works.call(seal.resolve) }
        let rejected = Promise<Int> { seal in fails.call(seal.resolve) }

        // Then
        #expect(try await fulfilled.value == 2)
        await #expect(throws: Failure.boom) { try await rejected.value }
    }

    @Test("(error, value), the inverted order: the error wins, then the value, else neither")
    func errorFirst() async throws {
        // Given
        let works = Fetcher<@Sendable ((any Error)?, Int?) -> Void> { $0(nil, 3) }
        let fails = Fetcher<@Sendable ((any Error)?, Int?) -> Void> { $0(Failure.boom, 3) }
        let neither = Fetcher<@Sendable ((any Error)?, Int?) -> Void> { $0(nil, nil) }

        // When
        let fulfilled = Promise<Int> { seal in works.call(seal.resolve) }
        let rejected = Promise<Int> { seal in fails.call(seal.resolve) }
        let invalid = Promise<Int> { seal in neither.call(seal.resolve) }

        // Then
        #expect(try await fulfilled.value == 3)
        await #expect(throws: Failure.boom) { try await rejected.value }
        await #expect(throws: PromiseError.invalidCallingConvention) { try await invalid.value }
    }

    @Test("a Result of a typed error: its failure rejects, its success fulfils")
    func typedResult() async throws {
        // Given
        let works = Fetcher<@Sendable (Result<Int, Failure>) -> Void> { $0(.success(4)) }
        let fails = Fetcher<@Sendable (Result<Int, Failure>) -> Void> { $0(.failure(.boom)) }

        // When
        let fulfilled = Promise<Int> { seal in works.call(seal.resolve) }
        let rejected = Promise<Int> { seal in fails.call(seal.resolve) }

        // Then
        #expect(try await fulfilled.value == 4)
        await #expect(throws: Failure.boom) { try await rejected.value }
    }

    @Test("a Void callback that passes only an error: fulfilled without one, rejected with it")
    func voidErrorOnly() async throws {
        // Given
        let works = Fetcher<@Sendable ((any Error)?) -> Void> { $0(nil) }
        let fails = Fetcher<@Sendable ((any Error)?) -> Void> { $0(Failure.boom) }

        // When
        let fulfilled = Promise<Void> { seal in works.call(seal.resolve) }
        let rejected = Promise<Void> { seal in fails.call(seal.resolve) }

        // Then
        try await fulfilled.value
        await #expect(throws: Failure.boom) { try await rejected.value }
    }

    @Test("resolve(nil, nil) is still (value, error): neither rejects as an invalid convention")
    func nilNilStaysValueError() async {
        // When
        let neither = Promise<Int> { seal in seal.resolve(nil, nil) }

        // Then
        await #expect(throws: PromiseError.invalidCallingConvention) { try await neither.value }
    }
}
