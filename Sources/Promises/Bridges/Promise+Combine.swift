// The Combine bridge: a promise or guarantee as a publisher, and a publisher's first value as a
// promise, with cancellation both ways. Combine exists on Apple platforms only, so this file is
// compiled there only (the seams table in the README says so); on Linux it is empty.
#if canImport(Combine)
    public import Combine
    import Foundation

    extension Promise {
        /// This promise as a Combine `Future`, as PromiseKit names it: one value, or the error.
        ///
        /// A `Future` starts at once and is shared by its subscribers, so cancelling a subscription
        /// does not cancel the promise; ``publisher()`` does.
        ///
        /// - Returns: A future settled like this promise.
        public func future() -> Future<Value, any Error> {
            let promise = self
            return Future { complete in
                let complete = FutureCompletion(complete)
                promise.tap(on: .inline) { complete.send($0) }.cauterize()
            }
        }

        /// This promise as a publisher of one value (then finished), or of its error. Cancelling
        /// the subscription before the promise settled cancels the promise.
        ///
        /// - Returns: A publisher of the promise's outcome.
        public func publisher() -> AnyPublisher<Value, any Error> {
            let promise = self
            return Deferred { promise.future() }
                .handleEvents(receiveCancel: { promise.cancel() })
                .eraseToAnyPublisher()
        }
    }

    extension Guarantee {
        /// This guarantee as a Combine `Future` that cannot fail, as PromiseKit names it.
        ///
        /// - Returns: A future of the guarantee's value.
        public func future() -> Future<Value, Never> {
            let guarantee = self
            return Future { complete in
                let complete = FutureCompletion(complete)
                guarantee.done(on: .inline) { complete.send(.success($0)) }
            }
        }

        /// This guarantee as a publisher of one value, then finished.
        ///
        /// - Returns: A publisher that cannot fail.
        public func publisher() -> AnyPublisher<Value, Never> {
            let guarantee = self
            return Deferred { guarantee.future() }.eraseToAnyPublisher()
        }
    }

    extension Publisher where Output: Sendable {
        /// The publisher's first value as a promise: it subscribes at once, takes the first value
        /// and cancels the subscription; the publisher's failure rejects the promise, and finishing
        /// without a value rejects it with ``PromiseError/emptySequence``. Cancelling the promise
        /// cancels the subscription.
        ///
        /// - Returns: A promise of the first value.
        public func promise() -> Promise<Output> {
            let (promise, seal) = Promise<Output>.pending()
            let subscriber = FirstValue<Output, Failure>(seal)
            seal.setCancellationHandler { subscriber.cancel() }
            subscribe(subscriber)
            return promise
        }
    }

    /// A `Future`'s completion, callable from the thread a promise settles on.
    ///
    /// `@unchecked Sendable` is sound: `complete` is only called, never changed, and Combine's
    /// `Future` takes its completion from any thread (asynchronous work calls it back on its own
    /// thread; the future guards its state with a lock of its own).
    private final class FutureCompletion<Output, Failure: Error>: @unchecked Sendable {
        let complete: (Result<Output, Failure>) -> Void

        init(_ complete: @escaping (Result<Output, Failure>) -> Void) {
            self.complete = complete
        }

        func send(_ result: Result<Output, Failure>) {
            complete(result)
        }
    }

    /// Subscribes for one value and hands it to a seal.
    ///
    /// `@unchecked Sendable` is sound: `subscription`, the only mutable state, is only read or
    /// written while holding `lock`; `seal` is `Sendable`.
    private final class FirstValue<Input: Sendable, Failure: Error>: Subscriber, @unchecked Sendable {
        private let seal: Seal<Input>
        private let lock = Locked()
        private var subscription: (any Subscription)?
        private var done = false

        init(_ seal: Seal<Input>) {
            self.seal = seal
        }

        func receive(subscription: any Subscription) {
            let cancelled = lock.withLock { () -> Bool in
                guard !done else { return true }
                self.subscription = subscription
                return false
            }
            if cancelled { subscription.cancel() } else { subscription.request(.max(1)) }
        }

        func receive(_ input: Input) -> Subscribers.Demand {
            finish()?.cancel()
            seal.fulfill(input)
            return .none
        }

        func receive(completion: Subscribers.Completion<Failure>) {
            _ = finish()
            switch completion {
            case .finished: seal.reject(PromiseError.emptySequence)
            case .failure(let error): seal.reject(error)
            }
        }

        /// Cancels the subscription (the promise was cancelled).
        func cancel() {
            finish()?.cancel()
        }

        /// Marks the subscriber done and hands over its subscription, once.
        private func finish() -> (any Subscription)? {
            lock.withLock {
                done = true
                defer { subscription = nil }
                return subscription
            }
        }
    }
#endif
