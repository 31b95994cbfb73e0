// A 4-byte lock for Linux, where the system mutex is 40 bytes.
//
// A promise is small and short-lived, and a `pthread_mutex_t` (40 bytes on Linux) would be most of
// it. This one is a single 32-bit word that the kernel's futex can wait on:
// 0 unlocked, 1 locked, 2 locked with waiters that must be woken. Taking and releasing it
// uncontended is one atomic instruction each; a thread that finds it taken
// spins briefly and then sleeps in the kernel until the holder wakes it.
//
// The atomic operations are the C11 builtins with acquire and release ordering, so
// ThreadSanitizer sees the lock's happens-before edges in instrumented builds.
//
// On Apple platforms the package uses `os_unfair_lock`, which is already 4 bytes, and this header
// declares nothing there; any other platform stops the build at the lock seam (Locked.swift).

#ifndef C_PROMISE_LOCK_H
#define C_PROMISE_LOCK_H

#if defined(__linux__)

#include <stdint.h>

/// Takes the lock at `word` the slow way: spins, then sleeps until the holder releases it.
void c_promise_lock_wait(uint32_t *word);

/// Wakes one thread sleeping on the lock at `word`.
void c_promise_lock_wake(uint32_t *word);

/// Takes the lock at `word`, a zero-initialised 32-bit word that does not move while in use.
static inline __attribute__((always_inline)) void c_promise_lock(uint32_t *word) {
    uint32_t expected = 0;
    if (__builtin_expect(__atomic_compare_exchange_n(word, &expected, 1, 0, __ATOMIC_ACQUIRE,
                                                     __ATOMIC_RELAXED),
                         1)) {
        return;
    }
    c_promise_lock_wait(word);
}

/// Releases the lock at `word`, taken by this thread with `c_promise_lock`.
static inline __attribute__((always_inline)) void c_promise_unlock(uint32_t *word) {
    if (__builtin_expect(__atomic_exchange_n(word, 0, __ATOMIC_RELEASE) == 2, 0)) {
        c_promise_lock_wake(word);
    }
}

#endif

#include <stdint.h>

// Publishing an object to other threads through a channel ThreadSanitizer cannot see (a dispatch
// queue's specific value, read without a lock): the maker stores 1 with release ordering once the
// object is complete, and every thread that finds it loads the word with acquire ordering before
// touching the rest. On every platform: these are plain C11 atomics.

/// Marks the object `word` belongs to as complete; its earlier writes happen before any
/// `c_promise_acquire_published` that reads 1.
static inline __attribute__((always_inline)) void c_promise_publish(uint32_t *word) {
    __atomic_store_n(word, 1, __ATOMIC_RELEASE);
}

/// Reads the mark `c_promise_publish` stored: 1 once the object is complete.
static inline __attribute__((always_inline)) uint32_t c_promise_acquire_published(uint32_t *word) {
    return __atomic_load_n(word, __ATOMIC_ACQUIRE);
}

// Whether the thread that settled a promise is still running its handlers (its "drain"): a byte
// of the promise's header. 0: no one is; 1: the settling thread is; 2: it is, and handlers were
// registered meanwhile, kept under the promise's lock to run after it. The settling thread begins
// and resumes a drain under the lock; it ends one without the lock (the usual case: no one
// registered meanwhile), so a registering thread, under the lock, joins with a compare-and-swap
// that fails once the drain ended. On every platform: these are plain C11 atomics.

/// Begins (or resumes) the drain; called under the promise's lock.
static inline __attribute__((always_inline)) void c_promise_drain_begin(uint8_t *word) {
    __atomic_store_n(word, 1, __ATOMIC_RELEASE);
}

/// Called under the promise's lock by a thread registering a handler on a settled promise: 1 when
/// it joined a drain (the handler must wait for the settling thread), 0 when none is running.
static inline __attribute__((always_inline)) uint8_t c_promise_drain_join(uint8_t *word) {
    uint8_t seen = __atomic_load_n(word, __ATOMIC_ACQUIRE);
    while (seen != 0) {
        if (seen == 2 ||
            __atomic_compare_exchange_n(word, &seen, 2, 0, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE)) {
            return 1;
        }
    }
    return 0;
}

/// Called without the lock by the settling thread once its handlers ran: 1 when the drain ended,
/// 0 when handlers joined it meanwhile (take them under the lock and resume).
static inline __attribute__((always_inline)) uint8_t c_promise_drain_end(uint8_t *word) {
    uint8_t running = 1;
    return __atomic_compare_exchange_n(word, &running, 0, 0, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE);
}

// How deep this thread is inside promise work that calls more promise work (settling a promise
// runs handlers that settle the next one; freeing one frees the ones waiting on it), and the work
// put off because it was too deep: see Trampoline.swift. Thread-local, so no atomics.

/// The nesting depth of promise work on this thread.
extern _Thread_local uint32_t c_promise_depth;

/// The work this thread put off, an object of the Swift side's; NULL when there is none.
extern _Thread_local void *c_promise_deferred;

/// Reads this thread's nesting depth.
static inline __attribute__((always_inline)) uint32_t c_promise_get_depth(void) {
    return c_promise_depth;
}

/// Sets this thread's nesting depth.
static inline __attribute__((always_inline)) void c_promise_set_depth(uint32_t depth) {
    c_promise_depth = depth;
}

/// Reads this thread's put-off work.
static inline __attribute__((always_inline)) void *c_promise_get_deferred(void) {
    return c_promise_deferred;
}

/// Sets this thread's put-off work.
static inline __attribute__((always_inline)) void c_promise_set_deferred(void *work) {
    c_promise_deferred = work;
}

// The queue turn this thread is running (a pointer to a Swift value on the stack of the function
// that runs the turn), or NULL: see QueueMailbox+Turn.swift. Thread-local, read on every post.

/// The turn this thread runs, or NULL.
extern _Thread_local void *c_promise_turn;

/// Reads the turn this thread runs.
static inline __attribute__((always_inline)) void *c_promise_get_turn(void) {
    return c_promise_turn;
}

/// Sets the turn this thread runs.
static inline __attribute__((always_inline)) void c_promise_set_turn(void *turn) {
    c_promise_turn = turn;
}

#endif
