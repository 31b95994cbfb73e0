#if canImport(Darwin)
    public import Darwin
#elseif canImport(Glibc)
    public import Glibc
#elseif canImport(Musl)
    public import Musl
#endif

#if canImport(Darwin)
    @usableFromInline
    typealias PlatformLock = os_unfair_lock
#else
    @usableFromInline
    typealias PlatformLock = pthread_mutex_t
#endif

/// A value guarded by a lock that lives in the same allocation: `os_unfair_lock` on Apple
/// platforms, a `pthread_mutex_t` elsewhere.
///
/// Why not `Synchronization.Mutex`: it needs iOS 18 / macOS 15, and on Linux ThreadSanitizer cannot
/// see its lock and unlock (they are not instrumented), so it reports every state change a `Mutex`
/// guards as a data race. Both platform locks are understood by ThreadSanitizer, cost the same
/// uncontended (one compare-and-swap to lock, one to unlock), and exist on every OS version that has
/// Swift concurrency. A `ManagedBuffer` keeps the lock at a stable address, as both C APIs require,
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
    ///   - flag: The initial value of the header's flag.
    ///   - bufferType: A subclass to allocate instead, for a `deinit` of its own.
    @inlinable
    init(
        _ state: consuming State, flag: Bool = false,
        as bufferType: LockedBuffer<State>.Type = LockedBuffer<State>.self
    ) {
        buffer = bufferType.make(consume state, flag: flag)
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

/// The header of a ``LockedBuffer``: the lock, and two flags its owner may keep for its `deinit`.
///
/// They live in the header, whose layout does not depend on `State`, so that a `deinit` in generic
/// code can read them without looking up type metadata. (The flags fit in the lock's padding.)
@usableFromInline
struct LockWord {
    @usableFromInline
    var lock: PlatformLock
    /// Guarded by the lock, like the state.
    @usableFromInline
    var flag: Bool
    /// Whether a subclass's own memory behind the state holds something to destroy; the subclass
    /// says who may touch it.
    @usableFromInline
    var tailInUse = false

    @inlinable
    init(flag: Bool) {
        #if canImport(Darwin)
            lock = os_unfair_lock()
        #else
            lock = pthread_mutex_t()
        #endif
        self.flag = flag
    }
}

/// The allocation behind ``Locked``: the lock as header, the state as the one element.
@usableFromInline
class LockedBuffer<State: Sendable>: ManagedBuffer<LockWord, State> {
    /// Makes a buffer holding `state`, with its lock ready.
    ///
    /// - Parameters:
    ///   - state: The initial state.
    ///   - flag: The initial value of the header's flag.
    ///   - capacity: Room for this many states; only the first is initialised, and a subclass may
    ///     use the rest as raw memory of its own.
    /// - Returns: The buffer, of the class it was called on.
    @inlinable
    final class func make(_ state: consuming State, flag: Bool, capacity: Int = 1) -> Self {
        // `LockWord(flag:)` zero-fills the lock: that is `OS_UNFAIR_LOCK_INIT`, and on Linux
        // `PTHREAD_MUTEX_INITIALIZER` (a default mutex, which needs no `pthread_mutex_destroy`).
        let made = create(minimumCapacity: capacity) { _ in LockWord(flag: flag) }
        let buffer = unsafeDowncast(made, to: self)
        // The buffer's memory does not move, so its address outlives the closure; the state is
        // moved in, not copied.
        let elements = buffer.withUnsafeMutablePointerToElements { $0 }
        elements.initialize(to: consume state)
        return buffer
    }

    /// Runs `body` with exclusive access to the state and to the header's flag.
    @inlinable
    final func withLock<Result>(_ body: (inout State, inout Bool) throws -> Result) rethrows -> Result {
        try withUnsafeMutablePointers { word, state in
            #if canImport(Darwin)
                os_unfair_lock_lock(&word.pointee.lock)
                defer { os_unfair_lock_unlock(&word.pointee.lock) }
            #else
                pthread_mutex_lock(&word.pointee.lock)
                defer { pthread_mutex_unlock(&word.pointee.lock) }
            #endif
            return try body(&state.pointee, &word.pointee.flag)
        }
    }

    /// The header's flag, read without the lock: only for `deinit`, when no one else holds a reference.
    /// (Through the pointer, not `header`: a class property's read is checked for exclusive
    /// access at run time, and this runs for every promise that goes away.)
    final var flagInDeinit: Bool {
        withUnsafeMutablePointerToHeader { $0.pointee.flag }
    }

    deinit {
        _ = withUnsafeMutablePointerToElements { $0.deinitialize(count: 1) }
    }
}
