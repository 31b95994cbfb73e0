import Dispatch
import Foundation
import Testing

@testable import Promises

@Suite("handlers on a DispatchQueue run in turns")
struct QueueMailboxTests {
    @Test("a new queue's mailbox, made on one thread and then found by others, is published race-free")
    func mailboxPublishedToOtherThreads() async throws {
        // Given / When: for each new queue, one thread posts first (and makes the mailbox) while
        // others post a moment later, with nothing between them that ThreadSanitizer sees, so they
        // find the mailbox through the queue. The pause is not what the test waits on: it only
        // makes that interleaving likely. Under the sanitizer, a read of the mailbox without a
        // happens-before edge from its maker is reported and fails the run.
        let ran = Counter()
        for round in 0..<20 {
            let queue = DispatchQueue(label: "published \(round)")
            let posts = (0..<4).map { index in
                let (posted, seal) = Promise<Promise<Void>>.pending()
                Thread {
                    if index > 0 { usleep(2_000) }
                    seal.fulfill(Promise.value(round).done(on: queue) { _ in ran.increment() })
                }
                .start()
                return posted
            }
            let done = try await when(fulfilled: posts).timeout(seconds: 10).value
            _ = try await when(fulfilled: done).timeout(seconds: 10).value
        }

        // Then
        #expect(ran.value == 20 * 4)
    }

    @Test("a burst bigger than a turn's budget runs every handler once, in the order they were posted")
    func burstKeepsOrder() async throws {
        // Given
        let queue = MarkedQueue("burst")
        let count = QueueMailbox.budget * 3 + 7
        let order = Recorder<Int>()
        let onQueue = Counter()

        // When
        let all = (0..<count).map { index in
            Promise.value(index).done(on: queue.queue) { index in
                if queue.isCurrent { onQueue.increment() }
                order.append(index)
            }
        }
        _ = try await when(fulfilled: all).timeout(seconds: 10).value

        // Then
        #expect(order.all == Array(0..<count))
        #expect(onQueue.value == count)
    }

    @Test("handlers a turn readies for its own queue beyond the budget still run, in order")
    func readiedBeyondBudget() async throws {
        // Given
        let queue = DispatchQueue(label: "readied")
        let count = QueueMailbox.budget * 2 + 3
        let (trigger, seal) = Promise<Int>.pending()
        let order = Recorder<Int>()
        let all = (0..<count).map { index in
            trigger.done(on: queue) { _ in order.append(index) }
        }

        // When: the promise settles inside a handler running on the same queue
        Promise.value(1).done(on: queue) { seal.fulfill($0) }
        _ = try await when(fulfilled: all).timeout(seconds: 10).value

        // Then
        #expect(order.all == Array(0..<count))
    }

    @Test("a turn that leaves part of a burst for the next and readies more handlers loses none of them")
    func readiedWhileBurstCarried() async throws {
        // Given: the queue is held, so that one turn takes a list longer than its budget; each
        // handler in it readies one more for the same queue (the next step of its chain)
        let queue = DispatchQueue(label: "carried")
        let count = QueueMailbox.budget * 2 + 5
        let order = Recorder<String>()
        queue.suspend()
        let chains = (0..<count).map { index in
            Promise.value(index)
                .map(on: queue) { index -> Int in
                    order.append("map \(index)")
                    return index
                }
                .done(on: queue) { index in order.append("done \(index)") }
        }

        // When
        queue.resume()
        _ = try await when(fulfilled: chains).timeout(seconds: 10).value

        // Then: every step ran once; each kind in the order its chains were made
        let steps = order.all
        #expect(steps.filter { $0.hasPrefix("map") } == (0..<count).map { "map \($0)" })
        #expect(steps.filter { $0.hasPrefix("done") } == (0..<count).map { "done \($0)" })
    }

    @Test("bursts one after another run each handler once: a turn's emptied list is reused empty")
    func successiveBurstsRunOnce() async throws {
        // Given
        let queue = DispatchQueue(label: "reuse")
        let runs = Recorder<Int>()

        // When: three bursts of closures, each waited for before the next
        for burst in 0..<3 {
            let all = (0..<100).map { index in
                Promise<Void> { seal in
                    queue.dispatch {
                        runs.append(burst * 100 + index)
                        seal.fulfill()
                    }
                }
            }
            _ = try await when(fulfilled: all).timeout(seconds: 10).value
        }

        // Then
        #expect(runs.all == Array(0..<300))
    }

    @Test("a block dispatched to the queue during a long burst runs between two turns, not after all")
    func burstYieldsToOtherBlocks() async throws {
        // Given: the queue is held, so everything below is queued before anything runs
        let queue = DispatchQueue(label: "fair")
        let count = QueueMailbox.budget * 4
        let ran = Counter()
        let seenByBlock = Recorder<Int>()
        queue.suspend()
        let all = (0..<count).map { _ in
            Promise.value(()).done(on: queue) { ran.increment() }
        }
        queue.async { seenByBlock.append(ran.value) }

        // When
        queue.resume()
        _ = try await when(fulfilled: all).timeout(seconds: 10).value

        // Then: the block ran after the first turn, long before the burst ended
        #expect(seenByBlock.all == [QueueMailbox.budget])
        #expect(ran.value == count)
    }

    @Test("each step of a chain on one queue runs on that queue, in order")
    func chainOnOneQueue() async throws {
        // Given
        let queue = MarkedQueue("chain")
        let steps = Recorder<Int>()
        var chain = Promise.value(0)

        // When
        for step in 1...50 {
            chain = chain.map(on: queue.queue) { value in
                if queue.isCurrent { steps.append(step) }
                return value + 1
            }
        }

        // Then
        #expect(try await chain.timeout(seconds: 10).value == 50)
        #expect(steps.all == Array(1...50))
    }

    @Test("handlers on a global queue all run")
    func globalQueue() async throws {
        // Given
        let ran = Counter()

        // When
        let all = (0..<100).map { _ in Promise.value(()).done(on: .global()) { ran.increment() } }
        _ = try await when(fulfilled: all).timeout(seconds: 10).value

        // Then
        #expect(ran.value == 100)
    }
}
