// The lock seam: one lock per platform, each in the same allocation as the state it guards.
// Apple platforms: os_unfair_lock. Linux and Android: a 4-byte futex word (CPromiseLock). Any other
// platform stops the build here rather than compile a lock no one has run.
#if canImport(Darwin)
    public import Darwin
#elseif !(os(Linux) || os(Android))
    #error("Promises has a lock for Apple platforms (os_unfair_lock) and Linux (a futex word) only")
#endif

#if canImport(Darwin)
    @usableFromInline
    typealias PlatformLock = os_unfair_lock
#elseif os(Linux) || os(Android)
    /// A futex word: see `CPromiseLock.h`.
    @usableFromInline
    typealias PlatformLock = UInt32
#endif

/// A value guarded by a lock that lives in the same allocation: `os_unfair_lock` on Apple
/// platforms, a futex word on Linux (`CPromiseLock`).
///
/// Why not `Synchronization.Mutex`: it needs iOS 18 / macOS 15, and on Linux ThreadSanitizer cannot
/// see its lock and unlock (they are not instrumented), so it reports every state change a `Mutex`
/// guards as a data race. These locks are understood by ThreadSanitizer (the futex word through its
/// C11 atomics), cost one compare-and-swap to lock and one to unlock uncontended, and exist on every
/// OS version that has Swift concurrency. Linux gets its own because `pthread_mutex_t` is 40 bytes:
/// most of a promise, whose size decides whether the allocator frees it on its fast path (see
/// ``LockedBuffer``). A `ManagedBuffer` keeps the lock at a stable address, as all three require,
/// without a second allocation.
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
        try buffer.withLock { state, _ in try body(&state) }
    }
}
