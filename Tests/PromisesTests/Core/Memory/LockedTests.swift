import Dispatch
import Testing

@testable import Promises

/// `Locked` is the lock and state every promise is made of: on Linux a futex word of our own, with
/// the header's flags reached by offset. These tests pin that it excludes, wakes its waiters, and
/// keeps every part where the code looks for it.
@Suite("a lock-guarded state")
struct LockedTests {
    /// A state aligned to 16 bytes, more than the buffer's words.
    struct Aligned: Sendable {
        var vector = SIMD4<Float>(1, 2, 3, 4)
        var count = 0
    }

    @Test("the header's flags are where the buffer reaches them by offset")
    func headerOffsets() {
        // Given / When
        let flag = MemoryLayout<BufferHeader>.offset(of: \BufferHeader.deinitFlag)
        let tailInUse = MemoryLayout<BufferHeader>.offset(of: \BufferHeader.tailInUse)
        let stateTrivial = MemoryLayout<BufferHeader>.offset(of: \BufferHeader.stateTrivial)
        let drain = MemoryLayout<BufferHeader>.offset(of: \BufferHeader.drain)

        // Then
        #expect(flag == BufferHeader.deinitFlagOffset)
        #expect(tailInUse == BufferHeader.tailInUseOffset)
        #expect(stateTrivial == BufferHeader.stateTrivialOffset)
        #expect(drain == BufferHeader.drainOffset)
    }

    @Test("the header's flag is read and written through the lock, and seen by deinit's read")
    func flagThroughLock() {
        // Given
        let locked = Locked(0)

        // When
        locked.buffer.withStateAndFlag { state, flag in
            state = 7
            flag = true
        }

        // Then
        #expect(locked.buffer.deinitFlagUnlocked)
        #expect(locked.withLock { $0 } == 7)
    }

    @Test("a state aligned beyond the buffer's words is placed aligned, and keeps its value")
    func alignedState() {
        // Given
        let locked = Locked(Aligned())

        // When
        let address = Int(bitPattern: locked.buffer.statePointer)
        locked.withLock { $0.count += 1 }

        // Then
        #expect(address % MemoryLayout<Aligned>.alignment == 0)
        #expect(locked.withLock { $0.vector } == SIMD4<Float>(1, 2, 3, 4))
        #expect(locked.withLock { $0.count } == 1)
    }

    @Test("threads that contend for the lock all get it, one at a time, and none is left asleep")
    func contention() async throws {
        // Given
        let locked = Locked(0)
        let threads = 8
        let increments = 50_000

        // When: more threads than cores, so that holders are preempted and waiters sleep in the
        // kernel; a waiter nobody wakes would keep `concurrentPerform` from returning, and the
        // test fails after 60 s instead of hanging.
        let counted = Promise<Int> { seal in
            DispatchQueue.global().async {
                DispatchQueue.concurrentPerform(iterations: threads) { _ in
                    for _ in 0..<increments {
                        locked.withLock { $0 += 1 }
                    }
                }
                seal.fulfill(locked.withLock { $0 })
            }
        }
        let finished = try await counted.timeout(seconds: 60).value

        // Then: an increment lost to two holders at once would show.
        #expect(finished == threads * increments)
    }
}
