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
            let now = Date()
            try await orders.save(Order.samples, at: now).value
            try await database.write { try $0.setCacheStamp(sampleStamp, to: now) }.value
        }
    }

    /// Kept with the date of the sample orders, so that a copy the shop never confirmed is not
    /// called the shop's: the copy is the sample while it still has that date.
    static let sampleStamp = "demo:sample-orders"

    /// Whether the orders' copy is still the sample this demo wrote (the shop never answered a
    /// listing of it).
    static func ordersAreSample(_ database: Database) async -> Bool {
        let dates = try? await database.read { connection in
            (try connection.cacheStamp("orders"), try connection.cacheStamp(sampleStamp))
        }.value
        guard let (orders, sample) = dates, let orders, let sample else { return false }
        return orders == sample
    }
}
