import Dispatch
import Foundation
import Promises

// One scenario of the promise benchmarks, run once, for valgrind's callgrind to count its
// instructions (`bash Benchmarks/count`): counts repeat where wall time on a shared machine does
// not. Usage: InstructionCounts SCENARIO N, with SCENARIO one of chains-promise,
// chains-callbacks, when-promise, when-callbacks; N chains of ten steps, or N elements.

/// State touched only on the scenario's serial queue: the queue is its lock.
final class OnQueue: @unchecked Sendable {
    // `@unchecked Sendable` is sound: every read and write runs in a block on `queue`, a serial
    // queue, one block at a time.
    var count = 0
    var values: [Int] = []
}

let arguments = CommandLine.arguments
guard arguments.count == 3, let count = Int(arguments[2]), count >= 0 else {
    print("usage: InstructionCounts chains-promise|chains-callbacks|when-promise|when-callbacks N")
    exit(2)
}
let queue = DispatchQueue(label: "counted")
let done = DispatchSemaphore(value: 0)
let state = OnQueue()

switch arguments[1] {
case "chains-promise":
    // As the benchmark "2 chains of 10": `then` returning a promise and `map`, alternating.
    for value in 0..<count {
        var promise = Promise.value(value)
        for step in 0..<10 {
            promise =
                step.isMultiple(of: 2)
                ? promise.then(on: queue) { Promise.value($0 + 1) } : promise.map(on: queue) { $0 + 1 }
        }
        promise.done(on: queue) { _ in
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
case "when-promise":
    let pairs = (0..<count).map { _ in Promise<Int>.pending() }
    when(fulfilled: pairs.map(\.promise)).done(on: queue) { values in
        state.values = values
        done.signal()
    }
    for (value, pair) in pairs.enumerated() { queue.async { pair.seal.fulfill(value) } }
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
    print("unknown scenario \(arguments[1])")
    exit(2)
}
if count > 0 { done.wait() }
