public import Dispatch

/// The promise a one-step operator (`map`, `done`, `then`) makes, with its step in the same
/// allocation: it is at once the new promise, the handler on the promise it follows, and the work
/// posted to the step's queue. A step then costs one allocation instead of three (promise, handler
/// closure, closure carrying the value to the queue).
///
/// Behind the promise's state, in the buffer's spare room, sits a ``Slot``: the step until it runs,
/// its queue while it waits for its input, and the input once it arrived. The step is released
/// when it ran or was skipped, so a closure that captures the owner of the promise does not keep
/// it alive.
@usableFromInline
final class StepPromise<Step: PromiseStep>: PromiseStorage<Step.Output> {
    // Why the slot is safe without the lock: see ``StepReference``.

    /// The step, the queue it waits to run on, and its input, behind the state.
    @usableFromInline
    struct Slot {
        @usableFromInline
        var step: Step?
        /// Kept only while the step waits for its input; taken when it starts.
        @usableFromInline
        var queue: Step.Queue?
        @usableFromInline
        var input: Resolution<Step.Input>?

        @inlinable
        init(step: Step, queue: Step.Queue?) {
            self.step = step
            self.queue = queue
        }
    }

    /// Makes the promise of `step`, pending and not yet registered anywhere.
    ///
    /// - Parameters:
    ///   - step: What to run.
    ///   - queue: Where to run it once the input arrives; `nil` when the caller starts it at once
    ///     with ``start(with:on:)``.
    /// - Returns: The promise.
    @inlinable
    static func make(_ step: Step, waitingOn queue: Step.Queue?) -> StepPromise<Step> {
        let state = PromiseState<Step.Output>(abandonment: .silent)
        let flag = state.deinitHasWork  // read before the state is moved into the buffer
        let promise = make(
            consume state, deinitFlag: flag, extraBytes: MemoryLayout<Slot>.size,
            extraAlignment: MemoryLayout<Slot>.alignment)
        promise.slotAddress.bindMemory(to: Slot.self, capacity: 1)
            .initialize(to: Slot(step: step, queue: queue))
        promise.slotInUse = true
        return promise
    }

    /// Where the slot lives: behind the state, in the room `make` asked for.
    @inlinable
    var slotAddress: UnsafeMutableRawPointer {
        tail(alignment: MemoryLayout<Slot>.alignment)
    }

    /// The slot, bound and initialised by `make`.
    @inlinable
    var slot: UnsafeMutablePointer<Slot> {
        slotAddress.assumingMemoryBound(to: Slot.self)
    }

    /// Whether the slot holds the step or its input, kept in the header so that `deinit`, which runs
    /// unspecialised, can skip the slot's layout when there is nothing to destroy (the usual case:
    /// the step ran). Touched only where the slot is, and a byte of its own beside the lock's flag.
    @inlinable
    var slotInUse: Bool {
        get { tailInUse.pointee }
        set { tailInUse.pointee = newValue }
    }

    /// Empties the slot: the step ran or was skipped.
    @inlinable
    func clearSlot() {
        let slot = self.slot
        slot.pointee.step = nil
        slot.pointee.queue = nil
        slot.pointee.input = nil
        slotInUse = false
    }

    /// The promise this storage backs.
    @inlinable
    var promise: Promise<Step.Output> {
        Promise(storage: self)
    }

    /// Takes the input, for a step made waiting on its queue: a fulfilled one is handed to the step
    /// on that queue, a rejection settles this promise at once and drops the step. `reference` is
    /// the handler's reference to this promise: it becomes the queued job's, instead of being
    /// released as the job takes one of its own.
    @inlinable
    func start(with input: Resolution<Step.Input>, holding reference: consuming StepReference) {
        // Moved out, not copied: the queue is not needed once the step is on its way.
        guard let queue = slot.pointee.queue.take() else { return }
        start(with: input, on: queue, holding: reference)
    }

    /// Takes the input and hands a fulfilled one to the step on `queue`; a rejection settles this
    /// promise at once and drops the step.
    @inlinable
    func start(with input: Resolution<Step.Input>, on queue: Step.Queue) {
        start(with: input, on: queue, holding: StepReference(self))
    }

    /// As ``start(with:on:)``, handing `reference` on to the queued job. It touches the promise
    /// only before it hands the job on: from then on the job may run on another thread and drop
    /// what may be the last reference. Where no job is made, `reference` is kept until the promise
    /// is done with: a `consuming` parameter would otherwise be released at once, being unused, and
    /// it may be the promise's last reference.
    @inlinable
    func start(
        with input: Resolution<Step.Input>, on queue: Step.Queue, holding reference: consuming StepReference
    ) {
        switch input {
        case .fulfilled:
            // Initialised over the `nil` it held until now (the input arrives once), not assigned:
            // an assignment would destroy that `nil` first.
            assert(slot.pointee.input.map { _ in false } ?? true, "a step's input arrives once")
            withUnsafeMutablePointer(to: &slot.pointee.input) { $0.initialize(to: input) }
            if let queue = queue as? DispatchQueue {
                QueueMailbox.post(PromiseJob(reference, of: Step.self), to: queue)
            } else if queue is InlineDispatcher {
                // Run here, unless this thread is too deep in promise work: see ``Trampoline``.
                if let depth = Trampoline.enter() {
                    withExtendedLifetime(reference) { run() }
                    Trampoline.leave(depth)
                } else {
                    Trampoline.putOff { self.run() }
                }
            } else {
                let job = PromiseJob(reference, of: Step.self)
                queue.dispatch { job() }
            }
        case .rejected(let error, let handled):
            withExtendedLifetime(reference) {
                clearSlot()
                settle(.rejected(error, handled: handled))
            }
        }
    }

    /// Runs the step with its input and releases both; the job posted by `start` calls it.
    @inlinable
    func run() {
        // Moved out of the slot, not copied; whatever is left (nothing, usually) is released.
        let slot = self.slot
        let step = slot.pointee.step.take()
        let input = slot.pointee.input.take()
        // The step and the input were moved out, so only the queue may hold something (it does not
        // when `start` took it); assigning `nil` to the other two again would cost a destroy each.
        slot.pointee.queue = nil
        slotInUse = false
        guard let step else { return }
        switch consume input {
        case .fulfilled(let value)?: step.run(value, settling: self)
        case .rejected?, nil: break
        }
    }

    deinit {
        // An emptied slot holds only `nil`s: destroying them would release nothing.
        if slotInUse {
            destroySlot()
        }
    }

    /// Destroys what the slot still holds (a step that never ran): a function of its own, so that
    /// `deinit`'s common case saves no registers.
    @inline(never)
    final func destroySlot() {
        slot.deinitialize(count: 1)
    }
}
