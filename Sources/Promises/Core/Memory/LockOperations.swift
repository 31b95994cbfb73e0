// The lock seam: every platform difference of the lock that guards a promise (and every `Locked`
// value) is in this file, and nowhere else.
//
// | platform | the lock | why |
// | --- | --- | --- |
// | Apple (Darwin) | `os_unfair_lock`, 4 bytes, zero when unlocked | the system's own; no iOS 18 / macOS 15 needed, as `Synchronization.Mutex` would be |
// | Linux, Android | a 4-byte futex word (`CPromiseLock`), zero when unlocked | `pthread_mutex_t` is 40 bytes, most of a promise; ThreadSanitizer sees the word through its C11 atomics, where it cannot see `Mutex` |
// | anything else | none: the build stops | a lock no one has run is a guess |
//
// The invariant every caller relies on: the lock word lives at a stable address inside the
// allocation it guards (a `ManagedBuffer`'s header), zero-filled before the allocation is shared,
// and never destroyed (neither lock needs it). `LockedBuffer` keeps it.
#if canImport(Darwin)
    public import Darwin
#elseif os(Linux) || os(Android)
    public import CPromiseLock
#else
    #error("Promises has a lock for Apple platforms (os_unfair_lock) and Linux (a futex word) only")
#endif

/// The three operations of the platform's lock: its unlocked value, lock, unlock.
@usableFromInline
enum LockOperations {
    #if canImport(Darwin)
        /// `os_unfair_lock`.
        @usableFromInline
        typealias Primitive = os_unfair_lock
    #else
        /// A futex word: see `CPromiseLock.h`.
        @usableFromInline
        typealias Primitive = UInt32
    #endif

    /// The value of a lock no one holds: `OS_UNFAIR_LOCK_INIT`, or a zero futex word.
    @inlinable
    static var unlocked: Primitive {
        #if canImport(Darwin)
            os_unfair_lock()
        #else
            0
        #endif
    }

    /// Takes the lock at `lock`, waiting while another thread holds it. Not recursive.
    @inlinable
    static func lock(_ lock: UnsafeMutablePointer<Primitive>) {
        #if canImport(Darwin)
            os_unfair_lock_lock(lock)
        #else
            c_promise_lock(lock)
        #endif
    }

    /// Gives the lock at `lock` back; only the thread that took it may.
    @inlinable
    static func unlock(_ lock: UnsafeMutablePointer<Primitive>) {
        #if canImport(Darwin)
            os_unfair_lock_unlock(lock)
        #else
            c_promise_unlock(lock)
        #endif
    }
}
