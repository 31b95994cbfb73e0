import Dispatch
import Foundation
import Promises

// The scenarios and what they share, as globals of a file that is not `main.swift`, so that no
// closure of theirs belongs to the main actor, and the callbacks capture nothing they did not
// capture as top-level code.

/// State touched only on the scenario's serial queue: the queue is its lock.
final class OnQueue: @unchecked Sendable {
    // `@unchecked Sendable` is sound: every read and write runs in a block on `queue`, a serial
    // queue, one block at a time.
    var count = 0
    var values: [Int] = []
}

/// The scenarios' serial queue.
let queue = DispatchQueue(label: "counted")
/// Signalled once a scenario finished.
let done = DispatchSemaphore(value: 0)
/// The scenario's state, touched on `queue` only.
let state = OnQueue()
/// How many chains, or elements, the scenario runs: the command's second argument.
let target = CommandLine.arguments.count == 3 ? Int(CommandLine.arguments[2]) ?? -1 : -1

/// The chain both chain scenarios build, as the benchmark "2 chains of 10": `then` returning a
/// promise and `map`, alternating, each step on ``queue``.
func chainOfTen(from value: Int) -> Promise<Int> {
    var promise = Promise.value(value)
    for step in 0..<10 {
        promise =
            step.isMultiple(of: 2)
            ? promise.then(on: queue) { Promise.value($0 + 1) } : promise.map(on: queue) { $0 + 1 }
    }
    return promise
}

/// Starts `scenario` with ``target`` elements; ``done`` is signalled once it finished. Here, not in
/// `main.swift`: closures made by top-level code belong to the main actor, and Swift checks at run
/// time that such a closure runs on it (`swift_task_isCurrentExecutor`, about 220 instructions a
/// call), which was counted against whichever scenario made one (`when-promise` did).
func start(_ scenario: String) {
    let count = target
    switch scenario {
    case "chains-promise":
        for value in 0..<count {
            chainOfTen(from: value).done(on: queue) { _ in
                state.count += 1
                if state.count == count { done.signal() }
            }
        }
    case "chains-callbacks":
        @Sendable func hop(_ value: Int, _ left: Int) {
            queue.async {
                if left == 0 {
                    state.count += 1
                    if state.count == count { done.signal() }
                } else {
                    hop(value + 1, left - 1)
                }
            }
        }
        for value in 0..<count { hop(value, 10) }
    case "chain-after-chain-promise":
        // The chains of "chains-promise", each built once the one before it ended, on the queue: the
        // steady state of an app, where a step's block is one the allocator has just had back.
        // "chains-promise" builds all its chains at once, so every block is new to the allocator
        // (glibc's `malloc` from a fresh heap, on another thread than the `free`), which the
        // callbacks, each hop made on the queue as the last one ends, never pay.
        @Sendable func chain(_ index: Int) {
            chainOfTen(from: index).done(on: queue) { _ in
                if index + 1 == count { done.signal() } else { chain(index + 1) }
            }
        }
        if count > 0 { chain(0) }
    case "chain-after-chain-callbacks":
        // The hops of "chains-callbacks", each chain started as the one before it ended.
        @Sendable func hop(_ index: Int, _ value: Int, _ left: Int) {
            queue.async {
                if left > 0 {
                    hop(index, value + 1, left - 1)
                } else if index + 1 == count {
                    done.signal()
                } else {
                    hop(index + 1, index + 1, 10)
                }
            }
        }
        if count > 0 { hop(0, 0, 10) }
    case "when-promise":
        let pairs = (0..<count).map { _ in Promise<Int>.pending() }
        when(fulfilled: pairs.map(\.promise)).done(on: queue) { values in
            state.values = values
            done.signal()
        }
        for (value, pair) in pairs.enumerated() { queue.async { pair.seal.fulfill(value) } }
    case "pending-promise":
        // The inputs of "when-promise" alone: made, fulfilled on the queue, and freed, with no
        // handler. "when-promise" less this is what `when` itself costs an element.
        let pairs = (0..<count).map { _ in Promise<Int>.pending() }
        for (value, pair) in pairs.enumerated() { queue.async { pair.seal.fulfill(value) } }
        queue.async { done.signal() }
    case "when-callbacks":
        queue.async { state.values = Array(repeating: 0, count: count) }
        for value in 0..<count {
            queue.async {
                state.values[value] = value
                state.count += 1
                if state.count == count { done.signal() }
            }
        }
    default:
        print("unknown scenario \(scenario)")
        exit(2)
    }
}
