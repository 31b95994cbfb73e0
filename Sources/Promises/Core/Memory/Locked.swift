/// A value guarded by a lock that lives in the same allocation (the platform's lock:
/// ``LockOperations``, which says why it is not `Synchronization.Mutex`).
///
/// The locks cost one compare-and-swap to lock and one to unlock uncontended. A `ManagedBuffer`
/// keeps the lock at a stable address, as both require, without a second allocation.
@usableFromInline
struct Locked<State: Sendable>: @unchecked Sendable {
    // `@unchecked Sendable` is sound: the buffer's mutable state (its header and its single element)
    // is only reached through `withLock`, always between acquiring and releasing the lock in the
    // header. The lock is initialised (statically, zero-filled) in `make` before the buffer can be
    // shared, and the state is destroyed in its `deinit`, when no other reference exists. `State` is
    // `Sendable`, so the values moved in and out may cross threads.
    @usableFromInline
    let buffer: LockedBuffer<State>

    /// Makes a lock-guarded `state`.
    ///
    /// - Parameters:
    ///   - state: The initial state.
    ///   - deinitFlag: The initial value of the flag the owner keeps for its `deinit`.
    ///   - bufferType: A subclass to allocate instead, for a `deinit` of its own.
    @inlinable
    init(
        _ state: consuming State, deinitFlag: Bool = false,
        as bufferType: LockedBuffer<State>.Type = LockedBuffer<State>.self
    ) {
        buffer = bufferType.make(consume state, deinitFlag: deinitFlag)
    }

    /// Wraps a buffer made already, as a subclass with more in it makes its own.
    @inlinable
    init(buffer: LockedBuffer<State>) {
        self.buffer = buffer
    }

    /// Runs `body` with exclusive access to the state.
    ///
    /// `body` must not take the same lock again: it is not recursive.
    @inlinable
    func withLock<Result>(_ body: (inout State) throws -> Result) rethrows -> Result {
        try buffer.withStateAndFlag { state, _ in try body(&state) }
    }
}
