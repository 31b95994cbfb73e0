import Benchmark
import Dispatch
import Promises

/// Each promise benchmark beside its baselines, all handlers on one private serial queue.
/// Names are "<group> / <implementation>"; `Benchmarks/run` prints each ratio to the group's
/// `queue.async` (or callback) baseline.
let benchmarks: @Sendable () -> Void = {
    let timing = Benchmark.Configuration(
        metrics: [.wallClock, .mallocCountTotal], timeUnits: .microseconds, warmupIterations: 2,
        maxDuration: .seconds(4), maxIterations: 30)
    let memory = Benchmark.Configuration(
        metrics: [.mallocCountTotal, .mallocBytesCount], warmupIterations: 10, maxDuration: .seconds(2),
        maxIterations: 10_000)

    // MARK: 1. 100k already-fulfilled promises + done

    let fulfilledCount = 100_000

    Benchmark("1 fulfilled+done / Promise", configuration: timing) { _ in
        let queue = DispatchQueue(label: "bench")
        let counter = QueueCounter()
        let done = DispatchSemaphore(value: 0)
        for value in 0..<fulfilledCount {
            Promise.value(value).done(on: queue) { _ in
                counter.count += 1
                if counter.count == fulfilledCount { done.signal() }
            }
        }
        await wait(for: done)
    }

    Benchmark("1 fulfilled+done / queue.async", configuration: timing) { _ in
        let queue = DispatchQueue(label: "bench")
        let counter = QueueCounter()
        let done = DispatchSemaphore(value: 0)
        for value in 0..<fulfilledCount {
            queue.async {
                blackHole(value)
                counter.count += 1
                if counter.count == fulfilledCount { done.signal() }
            }
        }
        await wait(for: done)
    }

    Benchmark("1 fulfilled+done / Task+await", configuration: timing) { _ in
        let counter = ActorCounter(target: fulfilledCount)
        for value in 0..<fulfilledCount {
            Task {
                blackHole(value)
                await counter.increment()
            }
        }
        await counter.waitForTarget()
    }

    // MARK: 2. 10k chains of 10 steps

    let chainCount = 10_000

    Benchmark("2 chains of 10 / Promise", configuration: timing) { _ in
        let queue = DispatchQueue(label: "bench")
        let counter = QueueCounter()
        let done = DispatchSemaphore(value: 0)
        for value in 0..<chainCount {
            var promise = Promise.value(value)
            for step in 0..<10 {
                if step.isMultiple(of: 2) {
                    promise = promise.then(on: queue) { Promise.value($0 + 1) }
                } else {
                    promise = promise.map(on: queue) { $0 + 1 }
                }
            }
            promise.done(on: queue) { _ in
                counter.count += 1
                if counter.count == chainCount { done.signal() }
            }
        }
        await wait(for: done)
    }

    Benchmark("2 chains of 10 / queue.async", configuration: timing) { _ in
        let queue = DispatchQueue(label: "bench")
        let counter = QueueCounter()
        let done = DispatchSemaphore(value: 0)
        @Sendable func hop(_ value: Int, _ left: Int) {
            queue.async {
                if left == 0 {
                    counter.count += 1
                    if counter.count == chainCount { done.signal() }
                } else {
                    hop(value + 1, left - 1)
                }
            }
        }
        for value in 0..<chainCount {
            hop(value, 10)
        }
        await wait(for: done)
    }

    Benchmark("2 chains of 10 / Task+await", configuration: timing) { _ in
        let counter = ActorCounter(target: chainCount)
        for value in 0..<chainCount {
            Task {
                var current = value
                for _ in 0..<10 {
                    current = await counter.step(current)
                }
                blackHole(current)
                await counter.increment()
            }
        }
        await counter.waitForTarget()
    }

    // MARK: 3. when(fulfilled:) over 10k pending promises

    let whenCount = 10_000

    Benchmark("3 when 10k / Promise", configuration: timing) { _ in
        let queue = DispatchQueue(label: "bench")
        let done = DispatchSemaphore(value: 0)
        let pairs = (0..<whenCount).map { _ in Promise<Int>.pending() }
        when(fulfilled: pairs.map(\.promise)).done(on: queue) { values in
            blackHole(values)
            done.signal()
        }
        for (value, pair) in pairs.enumerated() {
            queue.async { pair.seal.fulfill(value) }
        }
        await wait(for: done)
    }

    Benchmark("3 when 10k / queue.async", configuration: timing) { _ in
        let queue = DispatchQueue(label: "bench")
        let done = DispatchSemaphore(value: 0)
        let results = ResultSlots(whenCount)
        for value in 0..<whenCount {
            queue.async {
                results.values[value] = value
                results.remaining -= 1
                if results.remaining == 0 {
                    blackHole(results.values)
                    done.signal()
                }
            }
        }
        await wait(for: done)
    }

    Benchmark("3 when 10k / TaskGroup", configuration: timing) { _ in
        let values = await withTaskGroup(of: (Int, Int).self) { group in
            for value in 0..<whenCount {
                group.addTask { (value, value) }
            }
            var values = [Int](repeating: 0, count: whenCount)
            for await (index, value) in group {
                values[index] = value
            }
            return values
        }
        blackHole(values)
    }

    // MARK: 4. Memory

    Benchmark("4 memory / pending promise, settled", configuration: memory) { _ in
        let (promise, seal) = Promise<Int>.pending()
        seal.fulfill(1)
        blackHole(promise)
    }

    Benchmark("4 memory / pending promise + 1 handler", configuration: memory) { _ in
        let (promise, seal) = Promise<Int>.pending()
        let handled = promise.map(on: .inline) { $0 + 1 }
        seal.fulfill(1)
        blackHole(handled)
    }

    Benchmark("4 memory / pending promise + 10 steps", configuration: memory) { _ in
        let (promise, seal) = Promise<Int>.pending()
        var chain = promise
        for _ in 0..<10 {
            chain = chain.map(on: .inline) { $0 + 1 }
        }
        seal.fulfill(1)
        blackHole(chain)
    }

    googlePromisesBenchmarks()
    dataPathBenchmarks()
    outboxBenchmarks()
    scaleBenchmarks()
    observationBenchmarks()
    refreshBenchmarks()
    modelUpgradeBenchmarks()
    relatedRecordsBenchmarks()
    queryBenchmarks()
    latencyBenchmarks()
    uploadBenchmarks()
    budgetBenchmarks()
}

/// The countdown baseline's results, only touched on the benchmark's serial queue.
final class ResultSlots: @unchecked Sendable {
    // `@unchecked Sendable` is sound: both properties are only used by blocks on one serial queue.
    var values: [Int]
    var remaining: Int

    init(_ count: Int) {
        values = [Int](repeating: 0, count: count)
        remaining = count
    }
}
