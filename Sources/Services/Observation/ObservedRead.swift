import Foundation
import Promises

/// One observed read, as the database's registry holds it whatever its value's type.
protocol ObservedRead: AnyObject, Sendable {
    /// The lowercased names of the tables it reads; empty for "any table".
    var tables: Set<String> { get }
    /// Runs the read again and delivers its value if it changed. Called on the database's queue.
    func refresh(_ connection: Connection)
    /// Delivers a failure that is not the read's own (the file was deleted or replaced).
    func fail(_ error: any Error)
}

/// An observed read of one type: the read, the last value delivered, and where values go.
final class ObservationRecord<Value: Equatable & Sendable>: ObservedRead, @unchecked Sendable {
    // `@unchecked Sendable` is sound: `last` is only read and written by `refresh`, which runs on
    // the database's serial queue, never on two threads at once; `cancelled` and `pending` are `Locked`s;
    // every other stored property is a `let` of a `Sendable` type.
    let tables: Set<String>
    private let read: @Sendable (Connection) throws -> Value
    private let dispatcher: any Dispatcher
    private let onChange: @Sendable (Result<Value, any Error>) -> Void
    private let cancelled = Locked(false)
    private var last: Value?
    /// The newest result not yet handed to the observer: a read that changes faster than the
    /// observer takes its values replaces it, so that an observer never has more than one value
    /// waiting for it (a slow screen over a collection written page after page would otherwise
    /// queue a whole snapshot per commit: 24 GB seen, a terminal watch over 1 MiB rows).
    private let pending = Locked<Result<Value, any Error>?>(nil)

    init(
        tables: Set<String>, dispatcher: any Dispatcher,
        read: @escaping @Sendable (Connection) throws -> Value,
        onChange: @escaping @Sendable (Result<Value, any Error>) -> Void
    ) {
        self.tables = Set(tables.map { $0.lowercased() })
        self.dispatcher = dispatcher
        self.read = read
        self.onChange = onChange
    }

    /// Whether the observation was cancelled; nothing is delivered after it was.
    var isCancelled: Bool { cancelled.withLock { $0 } }

    /// Marks it cancelled: nothing is delivered after this returns.
    func cancel() {
        cancelled.withLock { $0 = true }
    }

    func refresh(_ connection: Connection) {
        guard !isCancelled else { return }
        let result = Result { try read(connection) }
        switch result {
        case .success(let value):
            guard value != last else { return }
            last = value
        case .failure:
            // The next value is delivered even if it equals the one before the failure: the
            // observer was last told of the failure.
            last = nil
        }
        deliver(result)
    }

    func fail(_ error: any Error) {
        deliver(.failure(error))
    }

    /// Hands `result` to the observer on its dispatcher, or, when a value still waits for it,
    /// puts `result` in its place: the observer gets the newest.
    private func deliver(_ result: Result<Value, any Error>) {
        let waiting = pending.withLock { pending -> Bool in
            defer { pending = result }
            return pending != nil
        }
        guard !waiting else { return }
        dispatcher.dispatch { [self] in
            guard
                let newest = pending.withLock({ pending in
                    defer { pending = nil }
                    return pending
                })
            else { return }
            if !isCancelled { onChange(newest) }
        }
    }
}
