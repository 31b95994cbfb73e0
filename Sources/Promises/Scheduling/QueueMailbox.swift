import CPromiseLock
public import Dispatch

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
    /// The handlers posted and not taken by a turn yet; the lists that earlier turns had no budget
    /// left for, each from its own start, which go first and in order; whether a turn that has not
    /// started yet is dispatched; and emptied lists kept for reuse, so that a steady stream of
    /// handlers does not grow a new array (and copy it, and have the allocator consolidate) for
    /// every turn.
    struct State: Sendable {
        var waiting: [Work] = []
        var carried: [Carried] = []
        var turnDispatched = false
        var spares: [[Work]] = []

        /// An emptied list to fill, with room from an earlier turn when there is one.
        mutating func spare() -> [Work] {
            spares.popLast() ?? []
        }

        /// Keeps an emptied list for reuse, unless enough are kept or it grew too big.
        mutating func keep(_ list: [Work]) {
            guard list.capacity > 0, list.capacity <= spareCapacity, spares.count < spareCount else {
                return
            }
            spares.append(list)
        }
    }

    /// A list a turn had no budget left for: its handlers from `from` on are still to run. Lists
    /// are carried whole rather than merged, so that handing one on never copies it.
    struct Carried: Sendable {
        var list: [Work]
        var from: Int
    }

    private let state = Locked(State())

    /// Set, with release ordering, once the mailbox is complete; a thread that finds the mailbox
    /// through its queue reads it with acquire ordering first. The queue-specific value is read
    /// without a lock ThreadSanitizer knows, so without this pair an app's own sanitizer run would
    /// report the first use of a mailbox made on another thread as a race.
    let published = PublicationWord()

    deinit {
        published.free()
    }

    /// A handler as the lists hold it: a closure, or a step promise that runs itself. (An array of
    /// bare closures would store each one behind a reabstraction thunk, an allocation per handler.)
    enum Work: Sendable {
        case closure(@Sendable () -> Void)
        case job(PromiseJob)
        /// Left behind when a turn moved the handler out of its list to run it.
        case taken

        func run() {
            switch self {
            case .closure(let work): work()
            case .job(let job): job()
            case .taken: break
            }
        }

        /// Dispatches the handler as a block of its own (a global queue has no mailbox); a closure
        /// goes as it is, without a second closure around it.
        func dispatchAlone(on queue: DispatchQueue) {
            switch self {
            case .closure(let work): queue.async(execute: work)
            case .job(let job): queue.async { job() }
            case .taken: break
            }
        }
    }

    /// The most handlers an emptied list may have room for to be kept for reuse: more would keep
    /// a burst's memory for as long as the queue lives.
    private static let spareCapacity = 8 * budget
    /// How many emptied lists are kept: one to take the waiting list's place, one for the readied
    /// handlers of a turn, and one in hand while the other two are in use.
    private static let spareCount = 3

    /// How many handlers a turn runs before it lets other blocks on the queue run.
    static let budget = 1024

    /// Runs `work` on `queue`, in the queue's next turn.
    @usableFromInline
    static func post(_ work: @escaping @Sendable () -> Void, to queue: DispatchQueue) {
        post(Work.closure(work), to: queue)
    }

    /// Runs `job` on `queue`, in the queue's next turn.
    @usableFromInline
    static func post(_ job: consuming PromiseJob, to queue: DispatchQueue) {
        post(Work.job(consume job), to: queue)
    }

    private static func post(_ work: consuming Work, to queue: DispatchQueue) {
        let turn = Turn.current
        if let turn, turn.pointee.queue == ObjectIdentifier(queue) {
            turn.pointee.readied.append(consume work)
            return
        }
        guard let mailbox = mailbox(of: queue) else {
            work.dispatchAlone(on: queue)
            return
        }
        if let turn, turn.pointee.mailbox == ObjectIdentifier(mailbox) {
            turn.pointee.readied.append(consume work)
            return
        }
        mailbox.append(consume work, on: queue)
    }

    /// Puts `work` at the end of the waiting list, and dispatches a turn unless one is waiting already.
    private func append(_ work: consuming Work, on queue: DispatchQueue) {
        var work = Optional(work)  // moved into the list, not copied
        change(on: queue) { state in
            if let work = work.take() { state.waiting.append(work) }
        }
    }

    /// Changes the state with `body`, and dispatches a turn unless one is waiting already.
    func change(on queue: DispatchQueue, _ body: (inout State) -> Void) {
        let mustDispatch = state.withLock { state in
            body(&state)
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
        // (a burst bigger than the budget) to the next turn, handing it back once its slice ran.
        // Until then no other turn is dispatched (`turnDispatched` stays set), so the list is this
        // turn's alone and each handler can be moved out of it rather than copied.
        var taken = state.withLock { state -> TakenTurn in
            let list: [Work]
            let from: Int
            if state.carried.isEmpty {
                list = state.waiting
                from = 0
                state.waiting = state.spare()
            } else {
                let first = state.carried.removeFirst()
                list = first.list
                from = first.from
            }
            let readied = state.spare()
            let end = min(from + Self.budget, list.count)
            if end < list.count {
                return TakenTurn(
                    list: list, range: from..<end,
                    after: AfterTurn(next: true, carried: true, othersFirst: true), readied: readied)
            } else if state.waiting.isEmpty && state.carried.isEmpty {
                state.turnDispatched = false
                return TakenTurn(
                    list: list, range: from..<end,
                    after: AfterTurn(next: false, carried: false, othersFirst: false), readied: readied)
            }
            // `turnDispatched` stays set: this turn dispatches the next. Handlers it readies wait
            // behind lists carried from earlier turns, which were readied before them.
            return TakenTurn(
                list: list, range: from..<end,
                after: AfterTurn(next: true, carried: false, othersFirst: !state.carried.isEmpty),
                readied: readied)
        }
        if taken.after.next && !taken.after.carried {
            queue.async { self.runTurn(on: queue) }
        }
        // Moved out of `taken`, not copied: the list must stay uniquely referenced, so that each
        // handler is moved out of it rather than the whole list copied.
        var readied: [Work] = []
        swap(&readied, &taken.readied)
        var current = Turn(mailbox: self, queue: queue, readied: consume readied)
        withUnsafeMutablePointer(to: &current) { current in
            let outer = Turn.current
            Turn.current = current
            defer { Turn.current = outer }
            run(&taken.list, taken.range, readiedIn: current, more: taken.after, on: queue)
        }
        keepForReuse(taken: &taken.list, readied: &current.readied)
    }

    /// Runs the handlers of `turn` in `range`, then those readied meanwhile in `current`, while the
    /// budget lasts; hands the rest back for the next turn.
    private func run(
        _ turn: inout [Work], _ range: Range<Int>, readiedIn current: UnsafeMutablePointer<Turn>,
        more: AfterTurn, on queue: DispatchQueue
    ) {
        for index in range {
            var work = Work.taken
            swap(&work, &turn[index])
            work.run()
        }
        if more.carried {
            // The rest goes first in the next turn, before what this one readies.
            state.withLock { state in
                var rest: [Work] = []
                swap(&rest, &turn)  // moved into the state, not copied
                state.carried.insert(Carried(list: rest, from: range.upperBound), at: 0)
            }
            queue.async { self.runTurn(on: queue) }
        }
        // Handlers the turn readied for this queue run in it, after the ones it started with. Each
        // is moved out of the list before it runs, as the list may grow meanwhile.
        var ran = range.count
        var next = 0
        while next < current.pointee.readied.count {
            guard ran < Self.budget && !more.othersFirst else {
                handBack(&current.pointee.readied, from: next, on: queue)
                break
            }
            var work = Work.taken
            swap(&work, &current.pointee.readied[next])
            next += 1
            work.run()
            ran += 1
        }
    }

    /// Empties the lists a turn is done with and keeps them for the next turns.
    private func keepForReuse(taken: inout [Work], readied: inout [Work]) {
        taken.removeAll(keepingCapacity: true)
        readied.removeAll(keepingCapacity: true)
        state.withLock { state in
            state.keep(taken)
            state.keep(readied)
        }
    }
}
