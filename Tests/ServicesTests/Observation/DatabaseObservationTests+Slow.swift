import Foundation
import PromiseMVPTesting
import Promises
import Testing

@testable import Services

/// A dispatcher that keeps what it is given until the test runs it: an observer that is busy.
final class HeldDispatcher: Dispatcher {
    private let held = Locked<[@Sendable () -> Void]>([])

    func dispatch(_ work: @escaping @Sendable () -> Void) {
        held.withLock { $0.append(work) }
    }

    /// How many deliveries wait.
    var waiting: Int { held.withLock { $0.count } }

    /// Runs what waits, in order.
    func runAll() {
        for work in held.withLock({ held in
            defer { held = [] }
            return held
        }) { work() }
    }
}

extension DatabaseObservationTests {
    @Test("an observer that is busy while three commits change the value gets the newest once, not three")
    func busyObserverGetsTheNewest() async throws {
        // Given: an observer whose deliveries wait, having taken the first value
        let database = try open()
        await Self.insert("1", "first", into: database)
        let dispatcher = HeldDispatcher()
        let values = DeliveryRecorder<[String]>()
        let handle = database.observe(tables: ["notes"], on: dispatcher, read: Self.texts) {
            values.record((try? $0.get()) ?? ["error"])
        }
        defer { handle.cancel() }
        _ = await PromiseExpectations.value(of: database.read { _ in () })  // the first read done
        dispatcher.runAll()
        #expect(await values.next() == ["first"])

        // When: three commits while it is busy
        for (id, text) in [("2", "second"), ("3", "third"), ("4", "fourth")] {
            await Self.insert(id, text, into: database)
        }
        // A read runs on the database's queue after the refreshes the last commit asked for.
        _ = await PromiseExpectations.value(of: database.read { _ in () })
        let waiting = dispatcher.waiting
        dispatcher.runAll()

        // Then: one delivery waited, with the newest value
        let newest = await values.next()
        #expect(waiting == 1)
        #expect(newest == ["first", "second", "third", "fourth"], "\(String(describing: newest))")
        #expect(values.all.count == 2)
    }
}
