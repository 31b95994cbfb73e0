import Dispatch
import Foundation
import Testing

@testable import Promises

/// A randomised stress run: random graphs of promises, settled, cancelled and dropped from several
/// threads, each result checked against a model, every handler counted, every promise freed.
///
/// Seeded and bounded: `PROMISE_STRESS_SEED` picks the graphs (a failure prints its seed),
/// `PROMISE_STRESS_SECONDS` how long to go on (2 s by default, for CI; longer on request).
@Suite("Stress")
struct StressTests {
    /// How a promise of the model ends.
    enum Outcome: Equatable, Sendable {
        case value(Int)
        case error(Int)
        case cancelled

        init(_ result: Result<Int, any Error>) {
            switch result {
            case .success(let value): self = .value(value)
            case .failure(let error as StressError): self = .error(error.code)
            case .failure: self = .cancelled
            }
        }
    }

    struct StressError: Error {
        let code: Int
    }

    /// One node of a graph: how it is made from earlier nodes, and where its handler runs.
    enum Node {
        case root
        case map(Int, add: Int)
        case then(Int, root: Int)
        case recover(Int, with: Int)
        case race(Int, Int)
        case when(Int, Int)
    }

    /// SplitMix64: small, fast, and the same sequence for the same seed everywhere.
    struct Random {
        var state: UInt64

        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }

        mutating func below(_ bound: Int) -> Int {
            Int(next() % UInt64(bound))
        }
    }

    /// Every outcome the model allows for each node, given how the roots end.
    static func allowed(_ nodes: [Node], roots: [Int: Outcome]) -> [Set<String>] {
        var allowed: [[Outcome]] = []
        for (index, node) in nodes.enumerated() {
            switch node {
            case .root:
                allowed.append([roots[index] ?? .cancelled])
            case .map(let parent, let add):
                allowed.append(
                    allowed[parent].map {
                        if case .value(let value) = $0 { return .value(value + add) }
                        return $0
                    })
            case .then(let parent, let root):
                allowed.append(
                    allowed[parent].flatMap { outcome -> [Outcome] in
                        if case .value = outcome { return allowed[root] }
                        return [outcome]
                    })
            case .recover(let parent, let value):
                allowed.append(
                    allowed[parent].map {
                        if case .error = $0 { return .value(value) }
                        return $0
                    })
            case .race(let first, let second):
                allowed.append(allowed[first] + allowed[second])
            case .when(let first, let second):
                var outcomes: [Outcome] = []
                for a in allowed[first] {
                    for b in allowed[second] {
                        switch (a, b) {
                        case (.value(let x), .value(let y)): outcomes.append(.value(x + y))
                        case (.value, let failure), (let failure, .value): outcomes.append(failure)
                        default: outcomes += [a, b]
                        }
                    }
                }
                allowed.append(outcomes)
            }
        }
        return allowed.map { Set($0.map { "\($0)" }) }
    }

    @Test("random graphs settle as the model says, every handler runs once, and everything is freed")
    func randomGraphs() async {
        let environment = ProcessInfo.processInfo.environment
        let seed = environment["PROMISE_STRESS_SEED"].flatMap(UInt64.init) ?? 20_261_122
        let seconds = environment["PROMISE_STRESS_SECONDS"].flatMap(Double.init) ?? 2
        var random = Random(state: seed)
        let queues = [DispatchQueue(label: "stress 1"), DispatchQueue(label: "stress 2")]
        let deadline = Date().addingTimeInterval(seconds)
        var graphs = 0
        while Date() < deadline || graphs < 20 {
            let graphSeed = random.next()
            await Self.runGraph(seed: graphSeed, queues: queues)
            graphs += 1
        }
        #expect(graphs >= 20, "seed \(seed)")
    }

    /// Builds one graph from `seed`, settles its roots from several threads, and checks it.
    static func runGraph(seed: UInt64, queues: [DispatchQueue]) async {
        var random = Random(state: seed)
        let rootCount = 2 + random.below(4)
        var nodes: [Node] = Array(repeating: .root, count: rootCount)
        for _ in 0..<(5 + random.below(40)) {
            let parent = random.below(nodes.count)
            let other = random.below(nodes.count)
            let root = random.below(rootCount)
            switch random.below(5) {
            case 0: nodes.append(.map(parent, add: random.below(10)))
            case 1: nodes.append(.then(parent, root: root))
            case 2: nodes.append(.recover(parent, with: 100 + random.below(10)))
            case 3: nodes.append(.race(parent, other))
            default: nodes.append(.when(parent, other))
            }
        }
        var roots: [Int: Outcome] = [:]
        for index in 0..<rootCount {
            switch random.below(3) {
            case 0: roots[index] = .value(random.below(100))
            case 1: roots[index] = .error(random.below(5))
            default: roots[index] = .cancelled
            }
        }
        let placements = nodes.map { _ in random.below(3) }
        let settleOrder = (0..<rootCount).map { _ in random.below(1000) }

        let calls = Locked([Int](repeating: 0, count: nodes.count))
        var storages: [() -> Bool] = []
        var taps: [Promise<Int>] = []
        do {
            var seals: [Seal<Int>] = []
            var promises: [Promise<Int>] = []
            for (index, node) in nodes.enumerated() {
                let promise: Promise<Int>
                switch node {
                case .root:
                    let (root, seal) = Promise<Int>.pending()
                    if index % 2 == 0 { seal.setCancellationHandler {} }
                    seals.append(seal)
                    promise = root
                case .map(let parent, let add):
                    promise = on(placements[index], queues) { promises[parent].map(on: $0) { $0 + add } }
                case .then(let parent, let root):
                    let target = promises[root]
                    promise = on(placements[index], queues) { promises[parent].then(on: $0) { _ in target } }
                case .recover(let parent, let value):
                    promise = on(placements[index], queues) {
                        promises[parent].recover(on: $0) { error -> Promise<Int> in
                            guard error is StressError else { throw error }
                            return .value(value)
                        }
                    }
                case .race(let first, let second):
                    promise = race([promises[first], promises[second]])
                case .when(let first, let second):
                    promise = when(fulfilled: [promises[first], promises[second]]).map(on: .inline) {
                        $0[0] + $0[1]
                    }
                }
                promises.append(promise)
                if let buffer = promise.storage {
                    storages.append { [weak buffer] in buffer == nil }
                }
                taps.append(
                    on(placements[index], queues) { queue in
                        promise.tap(on: queue) { _ in calls.withLock { $0[index] += 1 } }
                    })
            }

            // When: the roots settled from several threads at once, in a random order
            let order = (0..<rootCount).sorted { settleOrder[$0] < settleOrder[$1] }
            let outcomes = roots
            let (rootSeals, rootPromises) = (seals, promises)
            DispatchQueue.concurrentPerform(iterations: order.count) { position in
                let index = order[position]
                switch outcomes[index] {
                case .value(let value)?: rootSeals[index].fulfill(value)
                case .error(let code)?: rootSeals[index].reject(StressError(code: code))
                default: rootPromises[index].cancel()
                }
            }
            let results = await when(resolved: taps.map { $0.timeout(seconds: 10) }).value

            // Then: each as the model allows, each handler once
            let allowed = allowed(nodes, roots: roots)
            for (index, result) in results.enumerated() {
                if case .failure(let error as PromiseError) = result, error == .timedOut {
                    Issue.record("seed \(seed): node \(index) \(nodes[index]) never settled")
                    continue
                }
                let outcome = "\(Outcome(result))"
                #expect(
                    allowed[index].contains(outcome),
                    "seed \(seed): node \(index) \(nodes[index]) ended \(outcome), not one of \(allowed[index])"
                )
            }
            #expect(calls.withLock { $0 } == Array(repeating: 1, count: nodes.count), "seed \(seed)")
            taps = []
        }

        // Then: once the queues ran what they had, every promise is freed
        for queue in queues { queue.sync {} }
        #expect(storages.allSatisfy { $0() }, "seed \(seed): a promise was not freed")
    }

    /// Makes a step on the inline dispatcher or one of the serial queues, as `placement` says.
    static func on<Result>(
        _ placement: Int, _ queues: [DispatchQueue], _ make: (any Dispatcher) -> Result
    ) -> Result {
        switch placement {
        case 0: make(InlineDispatcher())
        case 1: make(queues[0])
        default: make(queues[1])
        }
    }
}
