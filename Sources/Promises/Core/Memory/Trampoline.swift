public import CPromiseLock

/// Keeps long chains from growing the stack with their length.
///
/// Settling a promise runs its handlers, which settle the promises that follow it, and so on down
/// the chain; freeing a pending promise frees the ones waiting on it the same way. Done by plain
/// recursion, a chain of a few thousand steps settled `.inline` (or rejected, which passes
/// straight on) overflows a 512 KiB stack, the size of a GCD worker thread's on Apple platforms.
///
/// So each thread counts how deeply such work is nested. Up to ``limit`` levels it runs at once,
/// as before; deeper, it is put off in a thread-local list that the outermost level works through
/// once its own work is done. A chain of any length then needs at most ``limit`` levels of stack,
/// and chains shorter than that (nearly all) run exactly as they would without it. What is put
/// off still runs on the same thread, before the outermost call returns, in the order it was put
/// off; only its place relative to the shallower handlers changes.
@usableFromInline
enum Trampoline {
    /// How many levels of promise work may nest on one thread before more is put off. One level
    /// is a handful of frames (a few hundred bytes in release builds, a few KiB in debug and
    /// sanitizer builds), so this stays far below a 512 KiB stack.
    @usableFromInline
    static var limit: UInt32 { 32 }

    /// Enters one level of nesting.
    ///
    /// - Returns: The depth to give back to ``leave(_:)``, or `nil` when this thread is already
    ///   ``limit`` levels deep and the caller must put its work off with ``putOff(_:)`` instead.
    @inlinable
    static func enter() -> UInt32? {
        let depth = c_promise_get_depth()
        guard depth < limit else { return nil }
        c_promise_set_depth(depth + 1)
        return depth
    }

    /// Leaves the level ``enter()`` entered; the outermost level then runs what was put off.
    ///
    /// - Parameter depth: What ``enter()`` returned.
    @inlinable
    static func leave(_ depth: UInt32) {
        c_promise_set_depth(depth)
        if depth == 0, c_promise_get_deferred() != nil {
            runPutOff()
        }
    }

    /// Puts `work` off until the outermost level on this thread is done with its own.
    ///
    /// Only called at ``limit`` levels deep, so an outer level is there to run it.
    @usableFromInline
    static func putOff(_ work: @escaping () -> Void) {
        if let existing = c_promise_get_deferred() {
            Unmanaged<PutOffWork>.fromOpaque(existing).takeUnretainedValue().items.append(work)
        } else {
            let list = PutOffWork()
            list.items.append(work)
            c_promise_set_deferred(Unmanaged.passRetained(list).toOpaque())
        }
    }

    /// Releases `value` here, one level deeper, or puts the release off when this thread is too
    /// deep: releasing a pending promise releases the promises waiting on it.
    @inlinable
    static func release<Value>(_ value: consuming Value) {
        guard let depth = enter() else {
            let kept = consume value
            putOff { withExtendedLifetime(kept) {} }
            return
        }
        discard(value)
        leave(depth)
    }

    /// Ends the life of `value` inside the call, so that what its release sets off happens before
    /// the caller leaves its level (a value merely left unused may live to the end of its scope).
    @usableFromInline
    @inline(never)
    static func discard<Value>(_ value: consuming Value) {}

    /// Runs what was put off, oldest first, at the first level of nesting, until nothing is left
    /// (the work may put off more), then frees the list.
    @usableFromInline
    static func runPutOff() {
        guard let opaque = c_promise_get_deferred() else { return }
        let list = Unmanaged<PutOffWork>.fromOpaque(opaque).takeUnretainedValue()
        c_promise_set_depth(1)
        var next = 0
        while next < list.items.count {
            // Taken out first, so that what it holds is released here, at this level.
            let work = list.items[next]
            list.items[next] = {}
            next += 1
            work()
        }
        c_promise_set_depth(0)
        c_promise_set_deferred(nil)
        Unmanaged<PutOffWork>.fromOpaque(opaque).release()
    }
}

/// The work one thread put off, in order; only that thread touches it.
@usableFromInline
final class PutOffWork {
    @usableFromInline
    var items: [() -> Void] = []

    @usableFromInline
    init() {}
}
