import Dispatch
import Testing

@testable import Promises

/// `map`, `done` and `then` keep their step inside the promise they return (`StepPromise`): these
/// tests pin what that must not change: what the step holds is released as soon as it is no longer
/// needed, every dispatcher still runs it, and values of any size and alignment come through.
@Suite("a step kept inside its promise")
struct StepPromiseTests {
    // MARK: - Test doubles

    /// An object a closure or a value holds, to see when it is released.
    final class Payload: Sendable {
        let number: Int

        init(_ number: Int) {
            self.number = number
        }
    }

    /// Runs nothing: the work it is given is dropped.
    struct DroppingDispatcher: Dispatcher {
        let dispatched = Counter()

        func dispatch(_ work: @escaping @Sendable () -> Void) {
            dispatched.increment()
        }
    }

    /// Runs the work at once, and counts it.
    struct CountingDispatcher: Dispatcher {
        let dispatched = Counter()

        func dispatch(_ work: @escaping @Sendable () -> Void) {
            dispatched.increment()
            work()
        }
    }

    /// A value wider than the slot's usual room and aligned to 16 bytes.
    struct Wide: Sendable, Equatable {
        var vector: SIMD16<Float>
        var label: String
    }

    // MARK: - Tests

    @Test("a step's closure is released once it ran, though its promise is still kept")
    func closureReleasedAfterRunning() async throws {
        // Given
        weak var weakPayload: Payload?
        let kept: Promise<Int>
        do {
            let payload = Payload(1)
            weakPayload = payload
            kept = Promise.value(1).map(on: DispatchQueue(label: "step")) { $0 + payload.number }
        }

        // When
        let value = try await kept.timeout(seconds: 10).value

        // Then
        #expect(value == 2)
        #expect(weakPayload == nil)
    }

    @Test("a step skipped by a rejection releases its closure at once")
    func closureReleasedWhenSkipped() {
        // Given
        weak var weakPayload: Payload?
        let (first, seal) = Promise<Int>.pending()
        let kept: Promise<Int>
        do {
            let payload = Payload(1)
            weakPayload = payload
            kept = first.then(on: .inline) { Promise.value($0 + payload.number) }
        }

        // When
        seal.reject(TestError.boom)

        // Then
        #expect(throws: TestError.boom) { try kept.result?.get() }
        #expect(weakPayload == nil)
    }

    @Test("a step its dispatcher never runs frees its closure and its input with its promise")
    func abandonedStepFreesWhatItHolds() {
        // Given
        let dropping = DroppingDispatcher()
        weak var weakClosurePayload: Payload?
        weak var weakInput: Payload?
        weak var weakStorage: LockedBuffer<PromiseState<Int>>?
        do {
            let closurePayload = Payload(1)
            let input = Payload(2)
            weakClosurePayload = closurePayload
            weakInput = input

            // When
            let step = Promise.value(input).map(on: dropping) { $0.number + closurePayload.number }
            weakStorage = step.storage
            #expect(step.isPending)
        }

        // Then
        #expect(dropping.dispatched.value == 1)
        #expect(weakStorage == nil)
        #expect(weakClosurePayload == nil)
        #expect(weakInput == nil)
    }

    @Test("a step on a dispatcher of the app's own is run through its dispatch")
    func customDispatcherRunsStep() throws {
        // Given
        let counting = CountingDispatcher()
        let (first, seal) = Promise<Int>.pending()
        let last = first.map(on: counting) { $0 + 1 }.then(on: counting) { Promise.value($0 * 2) }

        // When
        seal.fulfill(1)

        // Then
        #expect(counting.dispatched.value == 2)
        #expect(try last.result?.get() == 4)
    }

    @Test("wide, 16-byte aligned values and strings pass through every kind of step intact")
    func wideValuesPassThrough() async throws {
        // Given
        let queue = DispatchQueue(label: "wide")
        let start = Wide(vector: SIMD16(repeating: 1.5), label: String(repeating: "w", count: 100))
        let (first, seal) = Promise<Wide>.pending()

        // When
        let last =
            first
            .map(on: queue) { Wide(vector: $0.vector * 2, label: $0.label + "!") }
            .then(on: queue) { Promise.value(($0, $0.label.count)) }
            .map(on: .inline) { pair in pair.0.vector.sum() + Float(pair.1) }
        seal.fulfill(start)
        let value = try await last.timeout(seconds: 10).value

        // Then
        #expect(value == 16 * 3 + 101)
    }

    @Test("a cancelled step promise does not run its step, and cancels the promise it follows")
    func cancellationPassesOn() {
        // Given
        let ran = Counter()
        let (first, seal) = Promise<Int>.pending()
        seal.setCancellationHandler {}
        let step = first.map(on: .inline) { value -> Int in
            ran.increment()
            return value
        }

        // When
        step.cancel()

        // Then
        #expect(step.isCancelled)
        #expect(first.isCancelled)
        #expect(ran.value == 0)
    }

    @Test(
        "inline steps whose promises nobody keeps run to the end of the chain, fulfilled or rejected",
        arguments: [true, false])
    func unkeptInlineChainRuns(fulfilling: Bool) {
        // Given: only the last promise is kept; each step before it is held by its handler alone.
        let ran = Counter()
        let (first, seal) = Promise<Int>.pending()
        var chain = first
        for _ in 0..<10 {
            chain = chain.map(on: .inline) { value in
                ran.increment()
                return value + 1
            }
        }

        // When
        if fulfilling {
            seal.fulfill(0)
        } else {
            seal.reject(TestError.boom)
        }

        // Then
        #expect(ran.value == (fulfilling ? 10 : 0))
        #expect(chain.isFulfilled == fulfilling)
        #expect(chain.isRejected == !fulfilling)
    }

    @Test("a step on Int values is at most 104 bytes: freed on another thread, glibc frees it fast")
    func stepFitsTheAllocatorsFastPath() throws {
        // Given: glibc frees blocks of up to 120 bytes from another thread without its arena lock;
        // the benchmark harness's allocation counter adds 16 bytes to every block.
        let (first, _) = Promise<Int>.pending()

        // When
        let step = first.map(on: DispatchQueue(label: "size")) { $0 + 1 }
        let buffer = try #require(step.storage)
        // `capacity` is what the allocator really handed out, read back from the block's size.
        let start = Int(bitPattern: Unmanaged.passUnretained(buffer).toOpaque())
        let words = buffer.withUnsafeMutablePointerToElements { Int(bitPattern: $0) }
        let allocated = words - start + buffer.capacity * MemoryLayout<UInt64>.stride

        // Then
        #expect(allocated <= 104)
    }
}
