import CPromiseLock

/// A 32-bit word in memory of its own, for the release/acquire pair that publishes a mailbox.
struct PublicationWord: @unchecked Sendable {
    // `@unchecked Sendable` is sound: the word is only touched through the C11 atomic builtins of
    // `CPromiseLock` (one release store, then acquire loads), never plainly, and it is freed by
    // the mailbox's `deinit`, when no thread can reach the mailbox any more.
    private let word: UnsafeMutablePointer<UInt32>

    init() {
        word = .allocate(capacity: 1)
        word.initialize(to: 0)
    }

    func publish() {
        c_promise_publish(word)
    }

    func acquire() {
        _ = c_promise_acquire_published(word)
    }

    func free() {
        word.deallocate()
    }
}
