/// A value that arrives later, or an error saying why it never will.
///
/// A promise starts pending and settles exactly once: fulfilled with a `Value` or rejected with an
/// error. Later attempts to settle it are ignored. Handlers registered with the operators (`then`,
/// `map`, `done`, `catch`, ...) run exactly once each, in the order they were registered, never before
/// the promise settles.
///
/// Where a handler runs is chosen per call:
/// - Without `on:`, the handler is a `@MainActor` closure and runs on the main queue. Presenters and
///   views are main-actor isolated, so they can touch UI state inside it and the compiler checks that.
/// - With `on: queue`, the handler is a `@Sendable` closure and runs on that queue; pass `.inline` to
///   run it on whichever thread settles the promise, without a hop.
///
/// A command-line program on Linux has a running main queue only when its entry point is `async`
/// (`@main` with `static func main() async`, or top-level `await`); otherwise it must call
/// `dispatchMain()`, or register its handlers with `on:` another queue.
///
/// `Promise` is a `Sendable` reference to shared state: copies of it are the same promise. The
/// state is guarded by a lock, and the value is `Sendable`. A promise made already fulfilled
/// (``value(_:)``) has nothing to share and holds its value directly, without allocating.
public struct Promise<Value: Sendable>: Sendable {
    /// How the promise is held: its ``PromiseStorage``, or its value when it was fulfilled from
    /// the start.
    @usableFromInline
    enum Representation: @unchecked Sendable {
        // `@unchecked Sendable` is sound (a `ManagedBuffer` such as `PromiseStorage` cannot be
        // `Sendable` itself): the storage's state and header flags are only reached between
        // acquiring and releasing the lock in its header (through `withPromiseState`, `settle` and
        // `subscribe`), the lock is initialised before the storage is shared, and `Value` is
        // `Sendable`.
        /// Lock-guarded state that settles later, shared by every copy.
        case shared(PromiseStorage<Value>)
        /// Fulfilled from the start: nothing can change, so nothing is shared or locked.
        case fulfilled(Value)
    }

    @usableFromInline
    let representation: Representation

    @inlinable
    init(_ state: consuming PromiseState<Value>) {
        representation = .shared(.holding(state))
    }

    /// Wraps storage made already: a ``StepPromise`` makes its own, with its step in it.
    @inlinable
    init(storage: PromiseStorage<Value>) {
        representation = .shared(storage)
    }

    @inlinable
    init(fulfilled value: Value) {
        representation = .fulfilled(value)
    }

    /// The promise's storage, or `nil` for a promise fulfilled from the start.
    @inlinable
    var storage: PromiseStorage<Value>? {
        if case .shared(let storage) = representation { return storage }
        return nil
    }

    /// Runs `body` with exclusive access to the shared state, and keeps the storage's header flag
    /// equal to `deinitHasWork` afterwards; returns `immediate` for a promise fulfilled from the start.
    /// Every access to a promise's state goes through here.
    @inlinable
    func update<Result>(
        _ body: (inout PromiseState<Value>) throws -> Result, immediate: (Value) -> Result
    ) rethrows -> Result {
        switch representation {
        case .shared(let storage):
            return try storage.withPromiseState(body)
        case .fulfilled(let value):
            return immediate(value)
        }
    }

    /// Makes a pending promise and hands its seal to `body`, which runs at once.
    ///
    /// Use it to wrap callback-based work: call `seal.fulfill(_:)` or `seal.reject(_:)` when the work
    /// finishes. If `body` throws, the promise is rejected with that error.
    ///
    /// - Parameter body: Starts the work and keeps the seal until it finishes.
    @inlinable
    public init(_ body: (Seal<Value>) throws -> Void) {
        let (promise, seal) = Self.pending(abandonment: .promise)
        self = promise
        do {
            try body(seal)
        } catch {
            settle(.rejected(error, handled: false))
        }
    }

    /// Makes a promise already rejected with `error`.
    ///
    /// - Parameter error: Why the value will never come.
    @inlinable
    public init(error: any Error) {
        self.init(PromiseState(phase: .rejected(error, handled: false)))
    }

    /// Makes a promise already fulfilled with `value`.
    ///
    /// - Parameter value: The value the promise carries.
    /// - Returns: A fulfilled promise.
    @inlinable
    public static func value(_ value: Value) -> Promise<Value> {
        Promise(fulfilled: value)
    }

    /// Makes a pending promise and the seal that settles it.
    ///
    /// - Returns: The promise to hand out and the seal to keep.
    @inlinable
    public static func pending() -> (promise: Promise<Value>, seal: Seal<Value>) {
        pending(abandonment: .promise)
    }

    /// A pending promise and the seal that settles it, sharing one storage: every way of making one
    /// (`init(_:)` with a seal, `pending()`, the `async` initialiser, `Guarantee`'s `pending()`)
    /// goes through here.
    ///
    /// - Parameter abandonment: What its `deinit` reports if it is freed while pending.
    /// - Returns: The promise and its seal.
    @inlinable
    static func pending(
        abandonment: PromiseState<Value>.Abandonment
    ) -> (promise: Promise<Value>, seal: Seal<Value>) {
        let storage = PromiseStorage<Value>.holding(PromiseState(abandonment: abandonment))
        return (Promise(storage: storage), Seal(storage))
    }

    /// True until the promise settles.
    @inlinable
    public var isPending: Bool {
        update({ $0.isPending }, immediate: { _ in false })
    }

    /// True once the promise is fulfilled.
    @inlinable
    public var isFulfilled: Bool {
        update(
            {
                if case .fulfilled = $0.phase { return true }
                return false
            }, immediate: { _ in true })
    }

    /// True once the promise is rejected (cancellation included).
    @inlinable
    public var isRejected: Bool {
        update(
            {
                if case .rejected = $0.phase { return true }
                return false
            }, immediate: { _ in false })
    }

    /// How the promise settled, or `nil` while it is pending.
    ///
    /// Reading a rejected result counts as handling the error: it is not reported as unhandled.
    @inlinable
    public var result: Result<Value, any Error>? {
        update(
            { state in
                state.observed = true
                return state.resolution?.result
            }, immediate: { .success($0) })
    }
}

// MARK: - The core every operator is built on

extension Promise {
    /// Settles the promise unless it already settled, then runs the waiting handlers in order.
    ///
    /// - Parameters:
    ///   - resolution: The outcome.
    ///   - cancelling: Whether to run the cancellation handler; otherwise it is only released.
    @inlinable
    func settle(_ resolution: Resolution<Value>, cancelling: Bool = false) {
        guard case .shared(let storage) = representation else { return }  // fulfilled from the start
        storage.settle(resolution, cancelling: cancelling)
    }

    /// Calls `handler` once with the resolution: at once if settled, else when the promise settles.
    ///
    /// - Returns: Whether the promise is pending and cancellable, so that a promise derived from it
    ///   can pass a cancellation on.
    @discardableResult
    @inlinable
    func subscribe(_ handler: @escaping Handlers<Value>.Handler) -> Bool {
        subscribe(.closure(handler))
    }

    /// Registers one handler entry, as `subscribe` does for a closure.
    @discardableResult
    @inlinable
    func subscribe(_ handler: consuming Handlers<Value>.Entry) -> Bool {
        switch representation {
        case .shared(let storage):
            return storage.subscribe(handler)
        case .fulfilled(let value):
            handler(.fulfilled(value))
            return false
        }
    }
}
