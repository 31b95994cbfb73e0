#if canImport(Darwin)
    import Darwin
#elseif canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

#if canImport(Darwin)
    typealias PlatformLock = os_unfair_lock
#else
    typealias PlatformLock = pthread_mutex_t
#endif

/// A value guarded by a lock that lives in the same allocation: `os_unfair_lock` on Apple
/// platforms, a `pthread_mutex_t` elsewhere.
///
/// Why not `Synchronization.Mutex`: it needs iOS 18 / macOS 15, and on Linux ThreadSanitizer cannot
/// see its lock and unlock (they are not instrumented), so it reports every state change a `Mutex`
/// guards as a data race. Both platform locks are understood by ThreadSanitizer, cost the same
/// uncontended (one compare-and-swap to lock, one to unlock), and exist on every OS version that has
/// Swift concurrency. Tail allocation keeps the lock at a stable address, as both C APIs require,
/// without a second allocation.
struct Locked<State: Sendable>: @unchecked Sendable {
    // `@unchecked Sendable` is sound: the buffer's only mutable state is its header, and `withLock`
    // is the only way to reach it, always between acquiring and releasing the lock stored as the
    // buffer's single tail element. The lock is initialised in `make` before the buffer can be
    // shared and destroyed in its `deinit`, when no other reference exists. `State` is `Sendable`, so
    // the values moved in and out may cross threads.
    let buffer: LockedBuffer<State>

    /// Makes a lock-guarded `state`.
    ///
    /// - Parameters:
    ///   - state: The initial state.
    ///   - bufferType: A subclass to allocate instead, for a `deinit` of its own.
    init(_ state: State, as bufferType: LockedBuffer<State>.Type = LockedBuffer<State>.self) {
        buffer = bufferType.make(state)
    }

    /// Runs `body` with exclusive access to the state.
    ///
    /// `body` must not take the same lock again: it is not recursive.
    @inline(__always)
    func withLock<Result>(_ body: (inout State) throws -> Result) rethrows -> Result {
        try buffer.withLock(body)
    }
}

/// The allocation behind ``Locked``: the state as header, the lock as the one tail element.
class LockedBuffer<State: Sendable>: ManagedBuffer<State, PlatformLock> {
    /// Makes a buffer holding `state`, with its lock ready.
    final class func make(_ state: State) -> Self {
        let buffer = unsafeDowncast(create(minimumCapacity: 1) { _ in state }, to: self)
        buffer.withUnsafeMutablePointerToElements { lock in
            #if canImport(Darwin)
                lock.initialize(to: os_unfair_lock())
            #else
                lock.initialize(to: pthread_mutex_t())
                pthread_mutex_init(lock, nil)
            #endif
        }
        return buffer
    }

    @inline(__always)
    final func withLock<Result>(_ body: (inout State) throws -> Result) rethrows -> Result {
        try withUnsafeMutablePointers { state, lock in
            #if canImport(Darwin)
                os_unfair_lock_lock(lock)
                defer { os_unfair_lock_unlock(lock) }
            #else
                pthread_mutex_lock(lock)
                defer { pthread_mutex_unlock(lock) }
            #endif
            return try body(&state.pointee)
        }
    }

    deinit {
        withUnsafeMutablePointerToElements { lock in
            #if !canImport(Darwin)
                pthread_mutex_destroy(lock)
            #endif
            lock.deinitialize(count: 1)
        }
    }
}
