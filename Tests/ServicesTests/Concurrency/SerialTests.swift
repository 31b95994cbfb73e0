import PromiseMVPTesting
import Promises
import Testing

@testable import Services

/// Work by key, one piece at a time per key.
@Suite("Serial")
struct SerialTests {
    struct Failed: Error {}

    @Test("work under a key starts only once the work before it settled, even by failing")
    func sameKeyWaits() async {
        // Given: a first piece of work held open
        let serial = Serial<String>()
        let (first, sealFirst) = Promise<Int>.pending()
        let started = Locked<[String]>([])
        let one = serial.run("a") {
            started.withLock { $0.append("first") }
            return first
        }

        // When: a second under the same key is asked while the first runs
        let two = serial.run("a") {
            started.withLock { $0.append("second") }
            return Promise.value(2)
        }

        // Then: it starts once the first fails, and gets its own result
        #expect(started.withLock { $0 } == ["first"])
        sealFirst.reject(Failed())
        #expect(await PromiseExpectations.error(of: one) is Failed)
        #expect(await PromiseExpectations.value(of: two) == 2)
        #expect(started.withLock { $0 } == ["first", "second"])
    }

    @Test("work under another key runs side by side")
    func otherKeysDoNotWait() async {
        // Given
        let serial = Serial<String>()
        let (held, seal) = Promise<Int>.pending()
        let first = serial.run("a") { held }

        // When
        let other = serial.run("b") { Promise.value(2) }

        // Then
        #expect(await PromiseExpectations.value(of: other) == 2)
        seal.fulfill(1)
        #expect(await PromiseExpectations.value(of: first) == 1)
    }

    @Test("a key is forgotten once its last piece of work settled, not before")
    func settledKeysForgotten() async {
        // Given: two pieces of work under one key, both held
        let serial = Serial<String>()
        let (heldFirst, sealFirst) = Promise<Int>.pending()
        let (heldSecond, sealSecond) = Promise<Int>.pending()
        let first = serial.run("a") { heldFirst }
        let second = serial.run("a") { heldSecond }
        #expect(serial.keysHeld == 1)

        // When: the first settles, and a third is asked while the second still runs
        sealFirst.fulfill(1)
        _ = await PromiseExpectations.value(of: first)
        let thirdStarted = Locked(false)
        let third = serial.run("a") {
            thirdStarted.withLock { $0 = true }
            return Promise.value(3)
        }

        // Then: the key is still held, and the third waits for the second
        #expect(serial.keysHeld == 1)
        #expect(thirdStarted.withLock { $0 } == false)
        sealSecond.fulfill(2)
        _ = await PromiseExpectations.value(of: second)
        #expect(await PromiseExpectations.value(of: third) == 3)
        #expect(serial.keysHeld == 0)
    }
}
