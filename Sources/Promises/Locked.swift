// The lock seam: one lock per platform, each in the same allocation as the state it guards.
// Apple platforms: os_unfair_lock. Linux and Android: a 4-byte futex word (CPromiseLock). Any other
// platform stops the build here rather than compile a lock no one has run.
#if canImport(Darwin)
    public import Darwin
#elseif os(Linux) || os(Android)
    public import CPromiseLock
#else
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

/// The header of a ``LockedBuffer``: the lock, and flags its owner may keep for its `deinit`.
///
/// They live in the header, whose layout does not depend on `State`, so that a `deinit` in generic
/// code can read them without looking up type metadata. Each field is reached through a pointer of
/// its own (``LockedBuffer/lock``, ``LockedBuffer/flag``, ``LockedBuffer/tailInUse``,
/// ``LockedBuffer/stateTrivial``), never through the whole header: ThreadSanitizer records an
/// access to a struct through a pointer at the struct's first byte, which is the lock's, and would
/// report it as racing with the other threads' atomic operations on the lock.
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
    /// Whether the state holds nothing to release, so that `deinit` need not destroy it (which,
    /// in generic code, goes through the type's metadata); the owner sets it under the lock.
    @usableFromInline
    var stateTrivial = false

    @inlinable
    init(flag: Bool) {
        #if canImport(Darwin)
            lock = os_unfair_lock()
        #elseif os(Linux) || os(Android)
            lock = 0
        #endif
        self.flag = flag
    }

    /// Where `flag` is: right behind the lock, as Swift lays out stored properties in order (a test
    /// checks it against `MemoryLayout.offset(of:)`, which the optimiser does not fold).
    @inlinable
    static var flagOffset: Int { MemoryLayout<PlatformLock>.size }

    /// Where `tailInUse` is: right behind `flag`.
    @inlinable
    static var tailInUseOffset: Int { flagOffset + MemoryLayout<Bool>.size }

    /// Where `stateTrivial` is: right behind `tailInUse`.
    @inlinable
    static var stateTrivialOffset: Int { tailInUseOffset + MemoryLayout<Bool>.size }
}

/// The allocation behind ``Locked``: the lock as header, then the state, then whatever room a
/// subclass asked for.
///
/// The memory behind the header is counted in words rather than in states, so that a subclass that
/// keeps something of its own behind the state (``StepPromise``) pays for its bytes and not for a
/// whole second state. Size matters here more than anywhere: a promise made on one thread and freed
/// on another goes back to glibc's allocator without its arena lock only while it asked for at
/// most 120 bytes (a fastbin chunk); a bigger one makes the two threads queue for that lock.
@usableFromInline
class LockedBuffer<State: Sendable>: ManagedBuffer<LockWord, UInt64> {
    /// Makes a buffer holding `state`, with its lock ready.
    ///
    /// - Parameters:
    ///   - state: The initial state.
    ///   - flag: The initial value of the header's flag.
    ///   - extraBytes: Room behind the state, aligned to `extraAlignment`, that a subclass uses as
    ///     raw memory of its own (``tail``).
    ///   - extraAlignment: The alignment the extra room needs.
    /// - Returns: The buffer, of the class it was called on.
    @inlinable
    final class func make(
        _ state: consuming State, flag: Bool, extraBytes: Int = 0, extraAlignment: Int = 1
    ) -> Self {
        // `LockWord(flag:)` zero-fills the lock: that is `OS_UNFAIR_LOCK_INIT`, an unlocked futex
        // word, and `PTHREAD_MUTEX_INITIALIZER` (a default mutex, which needs no destroy).
        let bytes = tailOffset(extraAlignment: extraAlignment) + extraBytes
        let words = (bytes + MemoryLayout<UInt64>.size - 1) / MemoryLayout<UInt64>.size
        let made = create(minimumCapacity: words) { _ in LockWord(flag: flag) }
        let buffer = unsafeDowncast(made, to: self)
        // The buffer's memory does not move, so its address outlives the closure; the state is
        // moved in, not copied.
        buffer.stateAddress.bindMemory(to: State.self, capacity: 1).initialize(to: consume state)
        return buffer
    }

    /// The padding that may precede the state at the start of the words: none unless the state
    /// needs more than the words' own 8-byte alignment.
    @inlinable
    static var statePadding: Int {
        max(0, MemoryLayout<State>.alignment - MemoryLayout<UInt64>.alignment)
    }

    /// The offset from the start of the words at which a subclass's room begins, at worst.
    @inlinable
    static func tailOffset(extraAlignment: Int) -> Int {
        let end = statePadding + MemoryLayout<State>.size
        let padding = max(0, extraAlignment - MemoryLayout<UInt64>.alignment)
        return (end + extraAlignment - 1) / extraAlignment * extraAlignment + padding
    }

    /// Where the state lives. The buffer's memory does not move, so the address stays valid while
    /// the buffer lives; only `withLock` and `deinit` may read or write the state.
    @inlinable
    final var stateAddress: UnsafeMutableRawPointer {
        withUnsafeMutablePointerToElements { words in
            if MemoryLayout<State>.alignment <= MemoryLayout<UInt64>.alignment {
                return UnsafeMutableRawPointer(words)
            }
            return UnsafeMutableRawPointer(words).alignedUp(for: State.self)
        }
    }

    /// The state, bound and initialised by `make`.
    @inlinable
    final var statePointer: UnsafeMutablePointer<State> {
        stateAddress.assumingMemoryBound(to: State.self)
    }

    /// The first address behind the state aligned to `alignment`: where a subclass's own room is.
    ///
    /// - Parameter alignment: The alignment the subclass's room needs (a power of two).
    /// - Returns: The address, inside the room `make` reserved for the same alignment.
    @inlinable
    final func tail(alignment: Int) -> UnsafeMutableRawPointer {
        (stateAddress + MemoryLayout<State>.size)
            .alignedUp(toMultipleOf: alignment)
    }

    /// The header's lock.
    @inlinable
    final var lock: UnsafeMutablePointer<PlatformLock> {
        withUnsafeMutablePointerToHeader {
            UnsafeMutableRawPointer($0).assumingMemoryBound(to: PlatformLock.self)
        }
    }

    /// The header's flag: guarded by the lock.
    @inlinable
    final var flag: UnsafeMutablePointer<Bool> {
        withUnsafeMutablePointerToHeader {
            (UnsafeMutableRawPointer($0) + LockWord.flagOffset).assumingMemoryBound(to: Bool.self)
        }
    }

    /// The header's `tailInUse`: its subclass says who may touch it.
    @inlinable
    final var tailInUse: UnsafeMutablePointer<Bool> {
        withUnsafeMutablePointerToHeader {
            (UnsafeMutableRawPointer($0) + LockWord.tailInUseOffset).assumingMemoryBound(to: Bool.self)
        }
    }

    /// The header's `stateTrivial`: set under the lock, read by `deinit`.
    @inlinable
    final var stateTrivial: UnsafeMutablePointer<Bool> {
        withUnsafeMutablePointerToHeader {
            (UnsafeMutableRawPointer($0) + LockWord.stateTrivialOffset).assumingMemoryBound(to: Bool.self)
        }
    }

    /// Runs `body` with exclusive access to the state and to the header's flag.
    @inlinable
    final func withLock<Result>(_ body: (inout State, inout Bool) throws -> Result) rethrows -> Result {
        acquireLock()
        defer { releaseLock() }
        return try body(&statePointer.pointee, &flag.pointee)
    }

    /// Runs `body` with exclusive access to the state and to the header's flag, handing it `moved`
    /// to keep: a value `body` stores in the state is moved there, not copied (a closure cannot
    /// consume what it captures).
    @inlinable
    final func withLock<Moved, Result>(
        moving moved: consuming Moved, _ body: (inout State, inout Bool, consuming Moved) throws -> Result
    ) rethrows -> Result {
        acquireLock()
        defer { releaseLock() }
        return try body(&statePointer.pointee, &flag.pointee, moved)
    }

    /// Takes the header's lock; only the `withLock` methods do, around their body.
    @inlinable
    final func acquireLock() {
        #if canImport(Darwin)
            os_unfair_lock_lock(lock)
        #elseif os(Linux) || os(Android)
            c_promise_lock(lock)
        #endif
    }

    /// Gives the header's lock back.
    @inlinable
    final func releaseLock() {
        #if canImport(Darwin)
            os_unfair_lock_unlock(lock)
        #elseif os(Linux) || os(Android)
            c_promise_unlock(lock)
        #endif
    }

    /// The header's flag, read without the lock: only for `deinit`, when no one else holds a reference.
    final var flagInDeinit: Bool {
        flag.pointee
    }

    deinit {
        if !stateTrivial.pointee {
            statePointer.deinitialize(count: 1)
        }
    }
}
