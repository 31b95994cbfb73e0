/// A value guarded by a lock that lives in the same allocation (the platform's lock:
/// ``LockOperations``, which says why it is not `Synchronization.Mutex`).
///
/// The locks cost one compare-and-swap to lock and one to unlock uncontended. A `ManagedBuffer`
/// keeps the lock at a stable address, as both require, without a second allocation.
///
/// It is the package's one lock: `Services`, the test support and the demo use it too (`package`
/// access, so no user of the package sees it), and no Foundation lock is used anywhere
/// (`HouseRulesTests` checks). A class whose mutable state is all in a `Locked` is `Sendable`
/// without an unchecked promise of its own.
@usableFromInline
package struct Locked<State: Sendable>: @unchecked Sendable {
    // `@unchecked Sendable` is sound: the buffer's mutable state (its header and its single element)
    // is only reached through `withLock`, always between acquiring and releasing the lock in the
    // header. The lock is initialised (statically, zero-filled) in `make` before the buffer can be
    // shared, and the state is destroyed in its `deinit`, when no other reference exists. `State` is
    // `Sendable`, so the values moved in and out may cross threads.
    @usableFromInline
    let buffer: LockedBuffer<State>

    /// Makes a lock-guarded `state`.
    ///
    /// - Parameter state: The initial state.
    @inlinable
    package init(_ state: consuming State) {
        buffer = LockedBuffer<State>.make(consume state, deinitFlag: false)
    }

    /// Runs `body` with exclusive access to the state.
    ///
    /// `body` must not take the same lock again: it is not recursive.
    @inlinable
    package func withLock<Result>(_ body: (inout State) throws -> Result) rethrows -> Result {
        try buffer.withStateAndFlag { state, _ in try body(&state) }
    }
}

extension Locked where State == Void {
    /// Makes a lock that guards no value of its own: for a class whose state is spread over
    /// stored properties and extensions (the test server's), each touched only inside
    /// `withLock(_:)`. Such a class stays `@unchecked Sendable`, with a comment naming
    /// what the lock guards.
    @inlinable
    package init() {
        self.init(())
    }

    /// Runs `body` holding the lock.
    ///
    /// `body` must not take the same lock again: it is not recursive.
    @inlinable
    package func withLock<Result>(_ body: () throws -> Result) rethrows -> Result {
        try withLock { (_: inout Void) in try body() }
    }
}
