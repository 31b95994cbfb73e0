import Foundation
import Testing

@testable import PromiseMVPTesting

/// `DeliveryRecorder`: each delivery is given to the test once, in order, whether it came before
/// the test asked or while it waited.
@Suite("DeliveryRecorder")
struct DeliveryRecorderTests {
    @Test("deliveries kept before the test asks are given in order, each once; all keeps them")
    func keptBeforeAsked() async {
        // Given
        let recorder = DeliveryRecorder<Int>()
        recorder.record(1)
        recorder.record(2)

        // When
        let first = await recorder.next()
        let second = await recorder.next()

        // Then
        #expect([first, second] == [1, 2])
        #expect(recorder.all == [1, 2])
        #expect(!recorder.hasWaiter)
    }

    @Test("a test that waits gets the delivery made while it waits, and then the one after")
    func madeWhileWaiting() async {
        // Given: everything kept so far taken, and the test waiting for more
        let recorder = DeliveryRecorder<String>()
        recorder.record("taken")
        #expect(await recorder.next() == "taken")
        async let waited = recorder.next()
        while !recorder.hasWaiter { await Task.yield() }

        // When
        recorder.record("while waiting")
        recorder.record("after")

        // Then
        #expect(await waited == "while waiting")
        #expect(!recorder.hasWaiter)
        #expect(await recorder.next() == "after")
        #expect(recorder.all == ["taken", "while waiting", "after"])
    }

    @Test("waiting for a condition takes the deliveries before the one that meets it")
    func nextWhere() async {
        // Given
        let recorder = DeliveryRecorder<Int>()
        for value in [1, 2, 3] { recorder.record(value) }

        // When
        let even = await recorder.next { $0.isMultiple(of: 2) }

        // Then: 1 was taken on the way; 3 is next
        #expect(even == 2)
        #expect(await recorder.next() == 3)
    }
}
