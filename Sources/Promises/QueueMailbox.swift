public import Dispatch

#if canImport(Darwin)
    import Darwin
#elseif canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// The promise handlers waiting for one `DispatchQueue`, run in turns.
///
/// Dispatching every handler on its own costs a block, a copy of it and a queue push per handler,
/// and on another thread than the one that made them, the allocator's lock every time. Handlers
/// posted to a queue's mailbox instead wait in a list: the first one of a burst dispatches one turn,
/// and the handlers posted before that turn starts join it. A turn runs its handlers in the order
/// they were posted, at most ``budget`` of them, and then yields the queue to other blocks.
///
/// A queue's mailbox is attached to the queue itself (as a queue-specific value), so it lives as
/// long as the queue and is found from any `DispatchQueue` instance wrapping it. Global queues get
/// none: their handlers are dispatched one by one, so that they still run in parallel.
@usableFromInline
final class QueueMailbox: Sendable {
    /// The handlers posted and not taken by a turn yet; the part of a taken list that its turn had
    /// no budget for, from `carriedFrom` on, which goes first; and whether a turn that has not
    /// started yet is dispatched.
    private struct State: Sendable {
        var waiting: [Work] = []
        var carried: [Work] = []
        var carriedFrom = 0
        var turnDispatched = false
    }

    private let state = Locked(State())

    /// A handler as the lists hold it: a closure, or a step promise that runs itself. (An array of
    /// bare closures would store each one behind a reabstraction thunk, an allocation per handler.)
    private enum Work: Sendable {
        case closure(@Sendable () -> Void)
        case job(PromiseJob)

        func run() {
            switch self {
            case .closure(let work): work()
            case .job(let job): job()
            }
        }

        /// Dispatches the handler as a block of its own (a global queue has no mailbox); a closure
        /// goes as it is, without a second closure around it.
        func dispatchAlone(on queue: DispatchQueue) {
            switch self {
            case .closure(let work): queue.async(execute: work)
            case .job(let job): queue.async { job() }
            }
        }
    }

    /// How many handlers a turn runs before it lets other blocks on the queue run.
    static let budget = 1024

    /// Runs `work` on `queue`, in the queue's next turn.
    @usableFromInline
    static func post(_ work: @escaping @Sendable () -> Void, to queue: DispatchQueue) {
        post(Work.closure(work), to: queue)
    }

    /// Runs `job` on `queue`, in the queue's next turn.
    @usableFromInline
    static func post(_ job: PromiseJob, to queue: DispatchQueue) {
        post(Work.job(job), to: queue)
    }

    private static func post(_ work: Work, to queue: DispatchQueue) {
        let turn = Turn.current
        if let turn, turn.queue == ObjectIdentifier(queue) {
            turn.readied.append(work)
            return
        }
        guard let mailbox = mailbox(of: queue) else {
            work.dispatchAlone(on: queue)
            return
        }
        if let turn, turn.mailbox === mailbox {
            turn.readied.append(work)
            return
        }
        mailbox.add(on: queue) { $0.append(work) }
    }

    /// Changes the waiting list with `change`, and dispatches a turn unless one is waiting already.
    private func add(on queue: DispatchQueue, _ change: (inout [Work]) -> Void) {
        let mustDispatch = state.withLock { state in
            change(&state.waiting)
            defer { state.turnDispatched = true }
            return !state.turnDispatched
        }
        if mustDispatch {
            queue.async { self.runTurn(on: queue) }
        }
    }

    /// Takes the waiting handlers (up to the budget) and runs them; handlers posted from now on wait
    /// for the next turn, dispatched by the first of them, or by this turn if it leaves some behind.
    private func runTurn(on queue: DispatchQueue) {
        // The list is taken whole and never copied: a turn runs a slice of it and leaves the rest
        // (a burst bigger than the budget) to the next turn.
        let (turn, range, more) = state.withLock { state -> ([Work], Range<Int>, Bool) in
            let taken: [Work]
            let from: Int
            if state.carried.isEmpty {
                taken = state.waiting
                from = 0
                state.waiting = []
            } else {
                taken = state.carried
                from = state.carriedFrom
                state.carried = []
            }
            let end = min(from + Self.budget, taken.count)
            if end < taken.count {
                state.carried = taken
                state.carriedFrom = end
            } else if state.waiting.isEmpty {
                state.turnDispatched = false
                return (taken, from..<end, false)
            }
            return (taken, from..<end, true)  // `turnDispatched` stays set: this turn dispatches the next
        }
        if more {
            queue.async { self.runTurn(on: queue) }
        }
        let current = Turn(mailbox: self, queue: queue)
        let outer = Turn.current
        Turn.current = current
        defer { Turn.current = outer }
        for index in range {
            turn[index].run()
        }
        // Handlers the turn readied for this queue run in it, after the ones it started with.
        var ran = range.count
        var next = 0
        while next < current.readied.count {
            guard ran < Self.budget else {
                handBack(current.readied[next...], on: queue)
                break
            }
            let work = current.readied[next]
            next += 1
            work.run()
            ran += 1
        }
    }

    /// Puts handlers a turn had no budget left for first in line for the next turn.
    private func handBack(_ left: ArraySlice<Work>, on queue: DispatchQueue) {
        add(on: queue) { $0.insert(contentsOf: left, at: 0) }
    }

    /// The turn a thread is running: handlers readied during it for the same queue join it without
    /// taking the mailbox's lock.
    private final class Turn {
        let mailbox: QueueMailbox
        let queue: ObjectIdentifier
        /// Unchecked at run time: only the thread running the turn touches it (see `current`), so
        /// the check that no two accesses overlap, paid on every append, cannot fail.
        @exclusivity(unchecked)
        var readied: [Work] = []

        init(mailbox: QueueMailbox, queue: DispatchQueue) {
            self.mailbox = mailbox
            self.queue = ObjectIdentifier(queue)
        }

        /// The turn this thread is running, or `nil`; it is only ever read and set by its thread.
        static var current: Turn? {
            get {
                pthread_getspecific(key).map { Unmanaged<Turn>.fromOpaque($0).takeUnretainedValue() }
            }
            set {
                // Unretained: a turn is current only while `runTurn` holds it.
                pthread_setspecific(key, newValue.map { Unmanaged.passUnretained($0).toOpaque() })
            }
        }

        private static let key: pthread_key_t = {
            var key = pthread_key_t()
            let status = pthread_key_create(&key, nil)
            precondition(status == 0, "pthread_key_create failed: \(status)")
            return key
        }()
    }

    private static let key = DispatchSpecificKey<QueueMailbox>()
    /// Serialises making mailboxes, so that a queue never gets two.
    private static let making = Locked(())

    /// The mailbox of `queue`, made on first use; `nil` for the global concurrent queues.
    private static func mailbox(of queue: DispatchQueue) -> QueueMailbox? {
        if let mailbox = queue.getSpecific(key: key) {
            return mailbox
        }
        guard !queue.label.hasPrefix("com.apple.root.") else { return nil }
        return making.withLock { _ in
            if let mailbox = queue.getSpecific(key: key) {
                return mailbox
            }
            let mailbox = QueueMailbox()
            queue.setSpecific(key: key, value: mailbox)
            return mailbox
        }
    }
}
