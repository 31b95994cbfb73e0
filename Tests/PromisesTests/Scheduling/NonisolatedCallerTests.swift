import Dispatch
import Testing

@testable import Promises

@Suite("Main-actor handlers registered outside the main actor")
struct NonisolatedCallerTests {
    @Test("a nonisolated caller registers a main-actor handler that updates a view")
    func nonisolatedCallerUpdatesView() async throws {
        // Given
        let view = LabelView()

        // When
        try await showCount(of: Promise.value(2), in: view).value

        // Then
        #expect(await view.text == "2 from outside")
    }
}

/// Tells whether code runs on the main queue, without relying on Foundation.
enum MainQueueProbe {
    private static let key = DispatchSpecificKey<Bool>()

    static func isMainQueue() -> Bool {
        DispatchQueue.main.setSpecific(key: key, value: true)
        return DispatchQueue.getSpecific(key: key) == true
    }
}
