import Foundation
import Promises

/// A database's observed reads, and the timer that looks for other processes' writes while there
/// are any.
///
/// Writes made through the ``Database`` refresh the reads of the tables they changed as they
/// commit. Another process's commits cannot be seen that way: while something is observed, a
/// timer on the database's queue reads `PRAGMA data_version` (which changes when another
/// connection committed) and refreshes every read when it moved. It also checks that the file
/// is still the one that was opened, and tells every observer once when it was deleted or
/// replaced.
final class DatabaseObservers: @unchecked Sendable {
    // `@unchecked Sendable` is sound: `records` and `timer` are only read or written under `lock`;
    // `dataVersion` and `fileGone` only by the timer's handler and `startPolling`, both of which
    // run on the database's serial queue.
    private let lock = Locked()
    private var records: [ObjectIdentifier: any ObservedRead] = [:]
    private var timer: (any DispatchSourceTimer)?
    var dataVersion: SQLValue?
    var fileGone = false

    /// Adds `record`; the first one starts the timer `makeTimer` makes.
    func add(_ record: any ObservedRead, makeTimer: () -> any DispatchSourceTimer) {
        lock.withLock {
            records[ObjectIdentifier(record)] = record
            if timer == nil {
                let timer = makeTimer()
                self.timer = timer
                timer.resume()
            }
        }
    }

    /// Removes `record`; the last one stops the timer.
    func remove(_ record: any ObservedRead) {
        let stopped: (any DispatchSourceTimer)? = lock.withLock {
            records[ObjectIdentifier(record)] = nil
            guard records.isEmpty else { return nil }
            defer { timer = nil }
            return timer
        }
        stopped?.cancel()
    }

    /// Whether the timer runs (while any read is observed).
    var isPolling: Bool { lock.withLock { timer != nil } }

    /// How many reads are observed.
    var count: Int { lock.withLock { records.count } }

    /// The reads of any of `tables`, or every read when `tables` is `nil`.
    func reads(of tables: Set<String>?) -> [any ObservedRead] {
        let all = lock.withLock { Array(records.values) }
        guard let tables else { return all }
        return all.filter { $0.tables.isEmpty || !$0.tables.isDisjoint(with: tables) }
    }

    deinit {
        timer?.cancel()
    }
}
