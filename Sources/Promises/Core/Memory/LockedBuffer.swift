// The memory behind every promise and every `Locked` value, laid out by hand: a header (the lock and
// the owner's flags), the state, and room a subclass may use. The lock itself is the seam in
// `LockOperations.swift`.

/// The header of a ``LockedBuffer``: the lock, and flags its owner may keep for its `deinit`.
///
/// They live in the header, whose layout does not depend on `State`, so that a `deinit` in generic
/// code can read them without looking up type metadata. Each field is reached through a pointer of
/// its own (``LockedBuffer/lock``, ``LockedBuffer/deinitFlag``, ``LockedBuffer/tailInUse``,
/// ``LockedBuffer/stateTrivial``, ``LockedBuffer/drain``), never through the whole header: ThreadSanitizer records an
/// access to a struct through a pointer at the struct's first byte, which is the lock's, and would
/// report it as racing with the other threads' atomic operations on the lock.
@usableFromInline
struct BufferHeader {
    @usableFromInline
    var lock: LockOperations.Primitive
    /// What the owner's `deinit` reads instead of the state (a promise: whether it has anything to
    /// report or release). Guarded by the lock, like the state.
    @usableFromInline
    var deinitFlag: Bool
    /// Whether a subclass's own memory behind the state holds something to destroy; the subclass
    /// says who may touch it.
    @usableFromInline
    var tailInUse = false
    /// Whether the state holds nothing to release, so that `deinit` need not destroy it (which,
    /// in generic code, goes through the type's metadata); the owner sets it under the lock.
    @usableFromInline
    var stateTrivial = false
    /// Whether a thread runs the handlers of the settled state, and whether more joined them
    /// meanwhile: touched only through `CPromiseLock`'s `c_promise_drain_*` atomics (a promise's
    /// storage says when).
    @usableFromInline
    var drain: UInt8 = 0

    @inlinable
    init(deinitFlag: Bool) {
        lock = LockOperations.unlocked
        self.deinitFlag = deinitFlag
    }

    /// Where `deinitFlag` is: right behind the lock, as Swift lays out stored properties in order (a test
    /// checks it against `MemoryLayout.offset(of:)`, which the optimiser does not fold).
    @inlinable
    static var deinitFlagOffset: Int { MemoryLayout<LockOperations.Primitive>.size }

    /// Where `tailInUse` is: right behind `deinitFlag`.
    @inlinable
    static var tailInUseOffset: Int { deinitFlagOffset + MemoryLayout<Bool>.size }

    /// Where `stateTrivial` is: right behind `tailInUse`.
    @inlinable
    static var stateTrivialOffset: Int { tailInUseOffset + MemoryLayout<Bool>.size }

    /// Where `drain` is: right behind `stateTrivial`.
    @inlinable
    static var drainOffset: Int { stateTrivialOffset + MemoryLayout<Bool>.size }
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
class LockedBuffer<State: Sendable>: ManagedBuffer<BufferHeader, UInt64> {
    /// Makes a buffer holding `state`, with its lock ready.
    ///
    /// - Parameters:
    ///   - state: The initial state.
    ///   - deinitFlag: The initial value of the flag the owner keeps for its `deinit`.
    ///   - extraBytes: Room behind the state, aligned to `extraAlignment`, that a subclass uses as
    ///     raw memory of its own (``tail``).
    ///   - extraAlignment: The alignment the extra room needs.
    /// - Returns: The buffer, of the class it was called on.
    @inlinable
    final class func make(
        _ state: consuming State, deinitFlag: Bool, extraBytes: Int = 0, extraAlignment: Int = 1
    ) -> Self {
        // `BufferHeader(deinitFlag:)` sets the lock to `LockOperations.unlocked`, which needs no
        // destroying.
        let bytes = tailOffset(extraAlignment: extraAlignment) + extraBytes
        let words = (bytes + MemoryLayout<UInt64>.size - 1) / MemoryLayout<UInt64>.size
        let made = create(minimumCapacity: words) { _ in BufferHeader(deinitFlag: deinitFlag) }
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
    /// the buffer lives; only `withStateAndFlag` and `deinit` may read or write the state.
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
    final var lock: UnsafeMutablePointer<LockOperations.Primitive> {
        withUnsafeMutablePointerToHeader {
            UnsafeMutableRawPointer($0).assumingMemoryBound(to: LockOperations.Primitive.self)
        }
    }

    /// The flag the owner keeps for its `deinit` (a promise: whether `deinit` has work): guarded by
    /// the lock.
    @inlinable @inline(__always)
    final var deinitFlag: UnsafeMutablePointer<Bool> {
        withUnsafeMutablePointerToHeader {
            (UnsafeMutableRawPointer($0) + BufferHeader.deinitFlagOffset).assumingMemoryBound(to: Bool.self)
        }
    }

    /// The header's `tailInUse`: its subclass says who may touch it.
    @inlinable @inline(__always)
    final var tailInUse: UnsafeMutablePointer<Bool> {
        withUnsafeMutablePointerToHeader {
            (UnsafeMutableRawPointer($0) + BufferHeader.tailInUseOffset).assumingMemoryBound(to: Bool.self)
        }
    }

    /// The header's `stateTrivial`: set under the lock, read by `deinit`.
    @inlinable @inline(__always)
    final var stateTrivial: UnsafeMutablePointer<Bool> {
        withUnsafeMutablePointerToHeader {
            (UnsafeMutableRawPointer($0) + BufferHeader.stateTrivialOffset).assumingMemoryBound(to: Bool.self)
        }
    }

    /// The header's `drain` byte: reached only through the `c_promise_drain_*` atomics.
    @inlinable
    final var drain: UnsafeMutablePointer<UInt8> {
        withUnsafeMutablePointerToHeader {
            (UnsafeMutableRawPointer($0) + BufferHeader.drainOffset).assumingMemoryBound(to: UInt8.self)
        }
    }

    /// Runs `body` with exclusive access to the state and to the header's flag. Called by the two
    /// gateways only: ``Locked/withLock(_:)``, and `PromiseStorage.withPromiseState`, which keeps the
    /// flag equal to the state (`.ci/promise-gateway` checks that no other file calls it).
    @inlinable
    final func withStateAndFlag<Result>(_ body: (inout State, inout Bool) throws -> Result) rethrows -> Result
    {
        acquireLock()
        defer { releaseLock() }
        return try body(&statePointer.pointee, &deinitFlag.pointee)
    }

    /// Takes the header's lock; only `withStateAndFlag` does, around its body.
    @inlinable
    final func acquireLock() {
        LockOperations.lock(lock)
    }

    /// Gives the header's lock back.
    @inlinable
    final func releaseLock() {
        LockOperations.unlock(lock)
    }

    /// The header's flag, read without the lock: only for `deinit`, when no one else holds a reference.
    @inline(__always)
    final var deinitFlagUnlocked: Bool {
        deinitFlag.pointee
    }

    deinit {
        if !stateTrivial.pointee {
            statePointer.deinitialize(count: 1)
        }
    }
}
