import Foundation
import Melodies
import MelodiesTesting
import Testing

@Suite("Melody cache")
struct MelodyCacheTests {
    @Test("the cache's date is read without its melodies: none before a save, the save's after")
    func savedAtWithoutReading() async throws {
        // Given: nothing saved
        let cache = MelodyCache(database: try Database.inMemory())
        let empty = await PromiseExpectations.value(of: cache.savedAt())

        // When
        let savedAt = Date(timeIntervalSince1970: 1_800_000_000)
        _ = await PromiseExpectations.value(of: cache.save(Melody.mocks(), at: savedAt))
        let saved = await PromiseExpectations.value(of: cache.savedAt())

        // Then: the date `load()` gives the melodies
        #expect(empty == .some(nil))
        #expect(saved == .some(savedAt))
        #expect(await PromiseExpectations.value(of: cache.load())??.savedAt == savedAt)
    }
}
