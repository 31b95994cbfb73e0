import Foundation
import Melodies
import Orders

/// The sample API's data, as `Examples/api/server.py` serves it: `melodies.json` and
/// `orders.json`, the same catalogue the database is seeded with.
enum SampleAPI {
    static func write(to folder: URL) throws {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .iso8601
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try encoder.encode(Melody.samples).write(to: folder.appendingPathComponent("melodies.json"))
        try encoder.encode(Order.samples).write(to: folder.appendingPathComponent("orders.json"))
    }
}
