import Foundation
import Melodies
import Orders
import Promises
import Services

/// Fills a new database with the sample catalogue, so the first run shows data with nothing else
/// running. A database that already holds melodies or orders is left as it is.
enum Seeding {
    static func seedIfNeeded(_ database: Database) async throws {
        let melodies = MelodyCache(database: database)
        if try await melodies.savedAt().value == nil {
            try await melodies.save(Melody.samples, at: Date()).value
        }
        let orders = OrdersSQLiteStore(database: database)
        if try await orders.savedAt().value == nil {
            try await orders.save(Order.samples, at: Date()).value
        }
    }
}
