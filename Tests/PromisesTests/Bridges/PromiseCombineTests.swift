#if canImport(Combine)
    import Combine
    import Foundation
    import Testing

    @testable import Promises

    /// The Combine bridge (`Promise+Combine.swift`), on Apple platforms: a promise or guarantee as a
    /// publisher and back, cancellation both ways (PromiseKit's `CombineTests`, in this package's
    /// words).
    @Suite("Combine bridge")
    struct PromiseCombineTests {
        /// Collects what a publisher sends until it completes.
        final class Received<Output: Sendable>: @unchecked Sendable {
            // `@unchecked Sendable` is sound: every property is only touched inside `lock`.
            private let lock = NSLock()
            private var values: [Output] = []
            private var completion: String?
            private var cancellable: AnyCancellable?

            func subscribe<P: Publisher>(_ publisher: P) where P.Output == Output {
                let cancellable = publisher.sink(
                    receiveCompletion: { [self] completion in
                        lock.withLock {
                            switch completion {
                            case .finished: self.completion = "finished"
                            case .failure(let error): self.completion = "failed: \(error)"
                            }
                        }
                    },
                    receiveValue: { [self] value in lock.withLock { values.append(value) } })
                lock.withLock { self.cancellable = cancellable }
            }

            func cancel() {
                lock.withLock { cancellable }?.cancel()
            }

            var seen: ([Output], String?) { lock.withLock { (values, completion) } }
        }

        // `Future.value` (async) is macOS 12 / iOS 15: newer than the package's minimums.
        @available(macOS 12, iOS 15, tvOS 15, watchOS 8, *)
        @Test("a fulfilled promise publishes its value, then finishes")
        func promiseAsPublisher() async throws {
            // Given
            let (promise, seal) = Promise<Int>.pending()
            let received = Received<Int>()
            received.subscribe(promise.publisher())

            // When
            seal.fulfill(3)
            _ = try await promise.value
            let future = try await promise.future().value

            // Then
            #expect(received.seen.0 == [3] && received.seen.1 == "finished")
            #expect(future == 3)
        }

        @Test("a rejected promise publishes its error")
        func rejectedPromiseAsPublisher() async {
            // Given
            let promise = Promise<Int>(error: TestError.boom)
            let received = Received<Int>()

            // When
            received.subscribe(promise.publisher())
            _ = await outcome(of: promise)

            // Then
            #expect(received.seen.0.isEmpty && received.seen.1 == "failed: boom")
        }

        // `Future.value` (async) is macOS 12 / iOS 15: newer than the package's minimums.
        @available(macOS 12, iOS 15, tvOS 15, watchOS 8, *)
        @Test("a guarantee publishes its value and cannot fail")
        func guaranteeAsPublisher() async {
            // Given
            let received = Received<String>()

            // When
            received.subscribe(Guarantee.value("a").publisher())
            let value = await Guarantee.value("b").future().value

            // Then
            #expect(received.seen.0 == ["a"] && received.seen.1 == "finished")
            #expect(value == "b")
        }

        @Test("cancelling the subscription cancels the pending promise")
        func cancellingTheSubscriptionCancelsThePromise() async {
            // Given
            let (promise, _) = Promise<Int>.pending()
            let received = Received<Int>()
            received.subscribe(promise.publisher())

            // When
            received.cancel()

            // Then
            #expect(await outcome(of: promise).failure is CancellationError)
        }

        @Test("a publisher's first value becomes a promise; its failure or no value rejects it")
        func publisherAsPromise() async throws {
            // When
            let first = try await [1, 2, 3].publisher.promise().value
            let failed = await outcome(of: Fail<Int, TestError>(error: .boom).promise())
            let empty = await outcome(of: Empty<Int, Never>().promise())

            // Then
            #expect(first == 1)
            #expect(failed.failure as? TestError == .boom)
            #expect(empty.failure as? PromiseError == .emptySequence)
        }

        @Test("cancelling the promise cancels the subscription")
        func cancellingThePromiseCancelsTheSubscription() async {
            // Given
            let subject = PassthroughSubject<Int, Never>()
            let cancelled = Locked(false)
            let promise = subject.handleEvents(receiveCancel: { cancelled.withLock { $0 = true } }).promise()

            // When
            promise.cancel()
            subject.send(1)

            // Then
            #expect(await outcome(of: promise).failure is CancellationError)
            #expect(cancelled.withLock { $0 })
        }
    }
#endif
