#include "CPromiseLock.h"

_Thread_local uint32_t c_promise_depth = 0;
_Thread_local void *c_promise_deferred = 0;
_Thread_local void *c_promise_turn = 0;

#if defined(__linux__)

#include <linux/futex.h>
#include <sys/syscall.h>
#include <unistd.h>

// How many times a contended `c_promise_lock` looks at the word before it sleeps: promise critical
// sections are a few dozen instructions, so a holder on another core is usually gone by then.
enum { spin_limit = 100 };

// Tells the core that this thread is spinning (a hint that saves power and its sibling's time).
static inline void relax(void) {
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#elif defined(__aarch64__) || defined(__arm__)
    __asm__ __volatile__("yield");
#endif
}

void c_promise_lock_wait(uint32_t *word) {
    for (int spin = 0; spin < spin_limit; spin++) {
        uint32_t expected = 0;
        if (__atomic_load_n(word, __ATOMIC_RELAXED) == 0 &&
            __atomic_compare_exchange_n(word, &expected, 1, 0, __ATOMIC_ACQUIRE, __ATOMIC_RELAXED)) {
            return;
        }
        relax();
    }
    // From here on the word says 2 while anybody may be asleep, so the holder's unlock wakes one.
    // Taking it with 2 (not 1) is what keeps a second sleeper from being forgotten.
    while (__atomic_exchange_n(word, 2, __ATOMIC_ACQUIRE) != 0) {
        // Sleeps only if the word still says 2; a spurious or interrupted wake-up just looks again.
        syscall(SYS_futex, word, FUTEX_WAIT_PRIVATE, 2, NULL, NULL, 0);
    }
}

void c_promise_lock_wake(uint32_t *word) {
    syscall(SYS_futex, word, FUTEX_WAKE_PRIVATE, 1, NULL, NULL, 0);
}

#endif
