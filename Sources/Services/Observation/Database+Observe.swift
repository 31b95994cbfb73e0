import Foundation
public import Promises

extension Database {
    /// How often an observed database looks for other processes' commits, in seconds.
    static let otherWritersPollInterval = 0.1

    /// Observes a read: `onChange` gets its value at once, then again after every committed
    /// change to `tables`, whoever made it.
    ///
    /// - Writes made through this `Database` refresh the read as they commit, before the next
    ///   write runs.
    /// - Another process writing the same file is seen within a tenth of a second: while anything
    ///   is observed, the database reads `PRAGMA data_version` ten times a second on its queue
    ///   (nothing runs when nothing is observed).
    /// - A value equal to the one delivered last is not delivered again.
    /// - A read that throws delivers the error, and the observation goes on: the next value is
    ///   delivered whatever it is. The file deleted or replaced under the database is delivered
    ///   once as a ``DatabaseError`` (``DatabaseError/Kind/cannotOpen``).
    /// - It ends when the returned ``ObservationHandle`` is cancelled or released: keep it for as
    ///   long as the screen shows the value. It never keeps the database open.
    ///
    /// ```swift
    /// observation = database.observe(tables: ["notes"], on: .main) { connection in
    ///     try connection.query("SELECT text FROM notes ORDER BY id") { try $0.text(at: 0) }
    /// } onChange: { [weak self] result in
    ///     self?.show(result)
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - tables: The tables `read` reads (any case). A change to another table does not run it
    ///     again; another process's change runs it whatever it changed.
    ///   - dispatcher: Where `onChange` runs, in the order the values were read.
    ///   - read: Reads the value on the database's queue; it must not keep the connection.
    ///   - onChange: Gets each new value, or the error a read threw.
    /// - Returns: The observation; it ends when cancelled or released.
    public func observe<Value: Equatable & Sendable>(
        tables: Set<String>, on dispatcher: any Dispatcher,
        read: @escaping @Sendable (Connection) throws -> Value,
        onChange: @escaping @Sendable (Result<Value, any Error>) -> Void
    ) -> ObservationHandle {
        let record = ObservationRecord(tables: tables, dispatcher: dispatcher, read: read, onChange: onChange)
        observers.add(record) { makeOtherWritersTimer() }
        submit { if !self.isSuspended { record.refresh(self.connection) } }
        return ObservationHandle { [observers] in
            record.cancel()
            observers.remove(record)
        }
    }

    /// Observes a read, delivering on the main actor: ``observe(tables:on:read:onChange:)`` for a
    /// presenter.
    ///
    /// - Parameters:
    ///   - tables: The tables `read` reads.
    ///   - read: Reads the value on the database's queue.
    ///   - onChange: Gets each new value, or the error a read threw, on the main actor.
    /// - Returns: The observation; it ends when cancelled or released.
    public func observe<Value: Equatable & Sendable>(
        tables: Set<String>, read: @escaping @Sendable (Connection) throws -> Value,
        onChange: @escaping @MainActor (Result<Value, any Error>) -> Void
    ) -> ObservationHandle {
        observe(tables: tables, on: DispatchQueue.main, read: read) { result in
            MainActor.assumeIsolated { onChange(result) }
        }
    }

    /// Runs every observed read of `tables` again, as a commit that changed them would: for what
    /// those reads measure outside the file, such as the files kept beside it. Only the
    /// observations of this `Database` run again; those of another (another process's) see the
    /// change at the next commit. While suspended, the reads wait for ``resume()``.
    ///
    /// - Parameter tables: The tables whose observers are to read again (any case).
    package func refreshObservations(of tables: Set<String>) {
        let changed = Set(tables.map { $0.lowercased() })
        @Sendable func refresh() {
            guard !suspension.withLock({ $0.park(refresh) }) else { return }
            for read in observers.reads(of: changed) { read.refresh(connection) }
        }
        submit { refresh() }
    }

    /// The timer that looks for other processes' commits, on the database's queue. It holds the
    /// database weakly: an observation never keeps it open.
    private func makeOtherWritersTimer() -> any DispatchSourceTimer {
        let timer = DispatchSource.makeTimerSource(queue: queue)
        let interval = DispatchTimeInterval.milliseconds(Int(Self.otherWritersPollInterval * 1000))
        timer.schedule(deadline: .now() + interval, repeating: interval, leeway: .milliseconds(20))
        submit { self.observers.dataVersion = try? self.connection.scalar("PRAGMA data_version") }
        timer.setEventHandler { [weak self] in self?.lookForOtherWriters() }
        return timer
    }

    /// Refreshes every observed read when another connection committed since the last look, and
    /// tells them once when the file was deleted or replaced. Runs on the database's queue.
    private func lookForOtherWriters() {
        guard !isSuspended else { return }
        lookForOtherWritersNow()
    }

    /// ``lookForOtherWriters()`` whether or not the database is suspended: on resuming.
    func lookForOtherWritersNow() {
        if path != ":memory:", !observers.fileGone, !DatabaseFile.isStillOpened(path, identity: fileIdentity)
        {
            observers.fileGone = true
            let error = DatabaseError(
                kind: .cannotOpen, message: "the file was deleted or replaced while it was open", path: path)
            for read in observers.reads(of: nil) { read.fail(error) }
        }
        guard let version = try? connection.scalar("PRAGMA data_version"), version != observers.dataVersion
        else { return }
        observers.dataVersion = version
        for read in observers.reads(of: nil) { read.refresh(connection) }
    }
}
