import Foundation
import PromiseMVPTesting
import Promises
import Services
import Testing

/// `query(_:_:reservingCapacity:map:)`: the capacity is room made ahead, never a limit.
@Suite("Connection: a query with room made ahead")
struct ConnectionQueryCapacityTests {
    @Test(
        "every row comes, in order, whatever room was made: none, too little, exactly, too much, negative",
        arguments: [0, 3, 10, 1_000, -5])
    func everyRowComes(capacity: Int) async throws {
        // Given: ten songs
        let database = try Database.inMemory(migrations: [TestSchema.v1])
        let titles = (1...10).map { "Song \($0)" }
        _ = await PromiseExpectations.value(
            of: database.write { connection in
                for title in titles {
                    try connection.execute("INSERT INTO songs (title) VALUES (?)", [.text(title)])
                }
            })

        // When
        let read = await PromiseExpectations.value(
            of: database.read { connection in
                try connection.query("SELECT title FROM songs ORDER BY id", reservingCapacity: capacity) {
                    try $0.string("title")
                }
            })

        // Then
        #expect(read == titles)
    }
}
