import Benchmark
import Dispatch
import Promises

/// The scenarios of google/promises' published benchmark, each beside GCD doing the same round
/// trips in the same run, so that the ratio to GCD can be set beside the ratios they published
/// for their library, PromiseKit and Hydra (hardware differs; only the ratios compare).
///
/// - 7: a resolved promise with 1, 2 or 3 steps chained on a serial queue, the caller waiting for
///   the last one to run before it makes the next promise; GCD: one `async` to the queue and the
///   same wait. Each iteration is `roundTrips` of them.
/// - 8: `pendingCount` pending promises, each with one step on a concurrent queue, resolved from
///   blocks on that queue, waited for with a group; GCD: as many `async` blocks leaving the group.
func googlePromisesBenchmarks() {
    let timing = Benchmark.Configuration(
        metrics: [.wallClock, .mallocCountTotal], timeUnits: .microseconds, warmupIterations: 2,
        maxDuration: .seconds(4), maxIterations: 30)
    let roundTrips = 10_000

    for steps in 1...3 {
        Benchmark(
            "7 resolved promise, thens on a serial queue / Promise, \(steps) then\(steps == 1 ? "" : "s")",
            configuration: timing
        ) {
            _ in
            let queue = DispatchQueue(label: "bench", qos: .userInitiated)
            await blocking {
                let arrived = DispatchSemaphore(value: 0)
                for _ in 0..<roundTrips {
                    var promise = Promise.value(true)
                    for _ in 1..<steps {
                        promise = promise.map(on: queue) { $0 }
                    }
                    promise.done(on: queue) { _ in arrived.signal() }
                    arrived.wait()
                }
            }
        }
    }

    Benchmark("7 resolved promise, thens on a serial queue / GCD", configuration: timing) { _ in
        let queue = DispatchQueue(label: "bench", qos: .userInitiated)
        await blocking {
            let arrived = DispatchSemaphore(value: 0)
            for _ in 0..<roundTrips {
                queue.async { arrived.signal() }
                arrived.wait()
            }
        }
    }

    let pendingCount = 10_000

    Benchmark("8 10k pending promises resolved on a concurrent queue / Promise", configuration: timing) { _ in
        let queue = DispatchQueue(label: "bench", qos: .userInitiated, attributes: .concurrent)
        await blocking {
            let group = DispatchGroup()
            let pairs = (0..<pendingCount).map { _ in Promise<Bool>.pending() }
            for pair in pairs {
                group.enter()
                pair.promise.done(on: queue) { _ in group.leave() }
            }
            for pair in pairs {
                queue.async { pair.seal.fulfill(true) }
            }
            group.wait()
        }
    }

    Benchmark("8 10k pending promises resolved on a concurrent queue / GCD", configuration: timing) { _ in
        let queue = DispatchQueue(label: "bench", qos: .userInitiated, attributes: .concurrent)
        await blocking {
            let group = DispatchGroup()
            for _ in 0..<pendingCount {
                group.enter()
                queue.async { group.leave() }
            }
            group.wait()
        }
    }
}
