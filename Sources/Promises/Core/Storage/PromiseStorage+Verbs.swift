public import CPromiseLock

// The gateway to a promise's state, and the three ways it changes: settling, registering a handler,
// and adopting the outcome of another promise. Every operator is built on them (deriving a promise
// from another is `Promise+Derive.swift`, cancelling `CancelOrLate.swift`, both in this folder).

extension PromiseStorage {
    /// The one way into a promise's state: runs `body` under the lock, then sets the header's flag
    /// to the state's ``PromiseState/deinitHasWork``, which `deinit` reads instead of the state.
    /// Everything that reads or changes a promise's state goes through here (or through
    /// ``Promise/update(_:immediate:)``, which calls it), so that the two never disagree.
    @inlinable
    final func withPromiseState<Result>(
        _ body: (inout PromiseState<Value>) throws -> Result
    ) rethrows -> Result {
        try withStateAndFlag { state, deinitHasWork in
            defer { deinitHasWork = state.deinitHasWork }
            return try body(&state)
        }
    }

    /// Settles the promise this storage backs, as ``Promise/settle(_:cancelling:)`` does. Called on
    /// the storage itself, by a step that settles its own promise, it costs no reference of its own.
    @inlinable
    final func settle(_ resolution: Resolution<Value>, cancelling: Bool = false) {
        var cancelOrLate: CancelOrLate<Value>?
        let handlers = withPromiseState { (state: inout PromiseState<Value>) -> Handlers<Value> in
            guard state.isPending else { return .none }
            // Swapped out rather than read and overwritten: the handlers move, without a copy.
            var phase = PromiseState<Value>.Phase(resolution)
            swap(&phase, &state.phase)
            guard case .pending(let handlers) = consume phase else { return .none }
            // What cancelling does: it is not needed any more. Looked at first, so that the usual case
            // (nothing) costs no assignment, which would destroy the `nil` it overwrites.
            if case .some = state.cancelOrLate { cancelOrLate = state.cancelOrLate.take() }
            if case .fulfilled = resolution, _isPOD(Value.self) {
                // Nothing in the state needs releasing from now on (late handlers come and go
                // while this call runs): the storage's `deinit` may skip destroying it.
                stateTrivial.pointee = true
            }
            if !handlers.isEmpty {
                // Handlers registered from now until they ran wait for them: see `run`.
                c_promise_drain_begin(drain)
            }
            return handlers
        }
        // Run or released outside the lock: it may hold the last reference to other promises.
        // Consumed, not set to `nil`: the usual case holds nothing, and then there is nothing to destroy.
        if let taken = consume cancelOrLate, cancelling { taken.cancel() }
        guard !handlers.isEmpty else { return }
        // The handlers may settle more promises, each one level deeper: see ``Trampoline``.
        guard let depth = Trampoline.enter() else {
            let waiting = consume handlers
            Trampoline.putOff { self.run(waiting, resolution) }
            return
        }
        run(consume handlers, resolution)
        Trampoline.leave(depth)
    }

    /// Runs the handlers taken from the settled state, then those registered while they ran.
    ///
    /// The drain `settle` began ends without the lock when no one registered meanwhile (the usual
    /// case); a thread that registers joins it under the lock first, and its handler waits in
    /// `cancelOrLate`, taken here under the lock once this thread sees the drain was joined.
    @inlinable
    final func run(_ handlers: consuming Handlers<Value>, _ resolution: Resolution<Value>) {
        var handlers = handlers
        while !handlers.isEmpty {
            (consume handlers).run(resolution)
            if c_promise_drain_end(drain) != 0 { return }
            handlers = withPromiseState { state in
                // Moved out, not copied. Whoever joined the drain left its handler here before it
                // released the lock, so the list is not empty.
                guard case .late? = state.cancelOrLate, case .late(let late)? = state.cancelOrLate.take()
                else { return .none }
                c_promise_drain_begin(drain)
                return Handlers(late)
            }
        }
    }

    /// Registers one handler entry on the promise this storage backs, as ``Promise/subscribe(_:)``
    /// does.
    @inlinable
    final func subscribe(_ handler: consuming Handlers<Value>.Entry) -> Bool {
        // The handler is moved into the state, or handed back to run now: taken out of `moving`
        // once, never copied.
        var moving = Optional(handler)
        let (now, cancellable) = withPromiseState {
            state -> ((Resolution<Value>, Handlers<Value>.Entry)?, Bool) in
            state.observed = true
            guard let handler = moving.take() else { return (nil, false) }
            switch state.phase {
            case .pending(.none):
                // The usual case, a promise's first handler: stored without taking the empty list
                // out and appending to it.
                state.phase = .pending(.one(handler))
                return (nil, state.isCancellable)
            case .pending(var handlers):
                state.phase = .pending(.none)
                handlers.append(handler)
                state.phase = .pending(handlers)
                return (nil, state.isCancellable)
            case .fulfilled, .rejected:
                if c_promise_drain_join(drain) != 0 {
                    if case .late(var late) = state.cancelOrLate {
                        state.cancelOrLate = nil  // so that the append does not copy the list
                        late.append(handler)
                        state.cancelOrLate = .late(late)
                    } else {
                        state.cancelOrLate = .late([handler])
                    }
                    return (nil, false)
                }
                return (state.resolution.map { ($0, handler) }, false)
            }
        }
        if let (resolution, handler) = now {
            // The handler may settle more promises, each one level deeper: see ``Trampoline``.
            if let depth = Trampoline.enter() {
                handler(resolution)
                Trampoline.leave(depth)
            } else {
                Trampoline.putOff { handler(resolution) }
            }
        }
        return cancellable
    }

    /// Settles the promise this storage backs like `other` does, as ``Promise/adopt(_:)`` does.
    @inlinable
    final func adopt(_ other: Promise<Value>) {
        switch other.representation {
        case .fulfilled(let value):
            settle(.fulfilled(value))
            return
        case .shared(let storage) where storage === self:
            // A handler returned the promise its own step makes: it would wait on itself forever.
            settle(.rejected(PromiseError.returnedSelf, handled: false))
            return
        case .shared:
            break
        }
        // The cancellation handler that pointed at this promise's parent is replaced, or released
        // when this promise settles.
        let promise = Promise(storage: self)
        if other.subscribe({ resolution in promise.settle(resolution) }) {
            promise.cancelsUpstream(other)
        }
    }
}
