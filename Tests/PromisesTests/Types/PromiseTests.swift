import Testing

@testable import Promises

/// The life cycle of one promise: pending, then fulfilled or rejected exactly once
/// (Promises/A+ 2.1).
@Suite("Promise states")
struct PromiseTests {
    @Test("2.1.1 a pending promise may settle; until then it is pending")
    func pendingPromiseIsPending() {
        // Given
        let (promise, _) = Promise<Int>.pending()

        // Then
        #expect(promise.isPending)
        #expect(!promise.isFulfilled)
        #expect(!promise.isRejected)
        #expect(promise.result == nil)
    }

    @Test("2.1.2 a fulfilled promise must not change: a later reject or fulfill is ignored")
    func fulfilledPromiseDoesNotChange() async throws {
        // Given
        let (promise, seal) = Promise<Int>.pending()

        // When
        seal.fulfill(1)
        seal.reject(TestError.boom)
        seal.fulfill(2)
        seal.resolve(.success(3))

        // Then
        #expect(promise.isFulfilled)
        #expect(try await promise.value == 1)
    }

    @Test("2.1.3 a rejected promise must not change: a later fulfill or reject is ignored")
    func rejectedPromiseDoesNotChange() async {
        // Given
        let (promise, seal) = Promise<Int>.pending()

        // When
        seal.reject(TestError.boom)
        seal.fulfill(1)
        seal.reject(TestError.other)

        // Then
        #expect(promise.isRejected)
        #expect(await outcome(of: promise).failure as? TestError == .boom)
    }

    @Test("resolve settles with a result's value or error")
    func resolveSettlesWithResult() async throws {
        // Given
        let (fulfilled, fulfilledSeal) = Promise<String>.pending()
        let (rejected, rejectedSeal) = Promise<String>.pending()

        // When
        fulfilledSeal.resolve(.success("melody"))
        rejectedSeal.resolve(.failure(TestError.boom))

        // Then
        #expect(try await fulfilled.value == "melody")
        #expect(await outcome(of: rejected).failure as? TestError == .boom)
    }

    @Test("the body of init runs at once and a throwing body rejects")
    func initBody() async throws {
        // Given
        let ran = Recorder<Int>()

        // When
        let fulfilled = Promise<Int> { seal in
            ran.append(1)
            seal.fulfill(42)
        }
        let rejected = Promise<Int> { _ in throw TestError.boom }

        // Then
        #expect(ran.all == [1])
        #expect(try await fulfilled.value == 42)
        #expect(await outcome(of: rejected).failure as? TestError == .boom)
    }

    @Test("value and error make settled promises")
    func settledInitializers() throws {
        // When
        let fulfilled = Promise.value(7)
        let rejected = Promise<Int>(error: TestError.boom)

        // Then
        #expect(fulfilled.isFulfilled)
        #expect(try fulfilled.result?.get() == 7)
        #expect(rejected.isRejected)
        #expect(rejected.result?.failure as? TestError == .boom)
    }

    @Test("a Void seal fulfills without an argument")
    func voidSeal() async throws {
        // Given
        let (promise, seal) = Promise<Void>.pending()

        // When
        seal.fulfill()

        // Then
        try await promise.value
        #expect(promise.isFulfilled)
    }
}
