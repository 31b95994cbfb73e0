/// A promise's lock-guarded state, as every copy of the promise shares it.
///
/// Unlike ``Locked``, it has no `withLock`: the state is only reached through
/// ``LockedBuffer/withPromiseState(_:)`` (or `Promise.update`), which keeps the header's flag equal
/// to the state's ``PromiseState/deinitHasWork``. Changing the state any other way would let the two
/// disagree and silently break the misuse reports.
@usableFromInline
struct SharedPromiseState<Value: Sendable>: @unchecked Sendable {
    // `@unchecked Sendable` is sound for the same reason as `Locked`'s: the buffer's state and
    // header are only reached between acquiring and releasing the lock in the header (through
    // `withPromiseState`, `settle` and `subscribe`), the lock is initialised before the buffer is
    // shared, and `Value` is `Sendable`.
    @usableFromInline
    let buffer: LockedBuffer<PromiseState<Value>>

    @inlinable
    init(_ buffer: LockedBuffer<PromiseState<Value>>) {
        self.buffer = buffer
    }
}
