import CPromiseLock
import Dispatch

extension QueueMailbox {
    /// Puts the handlers from `from` on, which a turn had no budget left for, in line for the next
    /// turn (after what earlier turns left behind, before the waiting list), and dispatches it
    /// unless it is. The list is handed over as it is.
    func handBack(_ left: inout [Work], from: Int, on queue: DispatchQueue) {
        change(on: queue) { state in
            var list: [Work] = []
            swap(&list, &left)  // moved into the state, not copied
            state.carried.append(Carried(list: list, from: from))
        }
    }

    /// What a turn takes from the mailbox, under its lock: the list it runs a slice of, that slice,
    /// what it leaves to the turns after it, and an empty list for the handlers it readies.
    struct TakenTurn {
        var list: [Work]
        let range: Range<Int>
        let after: AfterTurn
        var readied: [Work]
    }

    /// What a turn leaves to the turns after it.
    struct AfterTurn {
        /// Whether this turn dispatches the next one.
        var next: Bool
        /// Whether the rest of the list this turn took is carried to the next turn.
        var carried: Bool
        /// Whether lists carried from earlier turns must run before what this turn readies.
        var othersFirst: Bool
    }

    /// The turn a thread is running: handlers readied during it for the same queue join it without
    /// taking the mailbox's lock.
    struct Turn {
        let mailbox: ObjectIdentifier
        let queue: ObjectIdentifier
        var readied: [Work]

        init(mailbox: QueueMailbox, queue: DispatchQueue, readied: consuming [Work]) {
            self.mailbox = ObjectIdentifier(mailbox)
            self.queue = ObjectIdentifier(queue)
            self.readied = readied
        }

        /// The turn this thread is running, or `nil`; it is only ever read and set by its thread.
        /// It lives on the stack of `runTurn`, which makes it current only while it runs handlers,
        /// and reaching it through a pointer costs the handlers no retain and no exclusivity check.
        /// The pointer is a C thread-local (`CPromiseLock`), read on every post: a plain load,
        /// where `pthread_getspecific` was a call and a once-check for its key.
        static var current: UnsafeMutablePointer<Turn>? {
            get { c_promise_get_turn()?.assumingMemoryBound(to: Turn.self) }
            set { c_promise_set_turn(newValue.map(UnsafeMutableRawPointer.init)) }
        }
    }
}
