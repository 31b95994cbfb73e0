public import Foundation

/// A folder of its own under the system's temporary folder for one test's files, removed with
/// everything in it when the last reference goes, so a test cleans up after itself even when it
/// fails.
///
/// ```swift
/// let folder = TemporaryFolder("OrdersTests")
/// let database = try Database(at: folder.file("orders.sqlite"))
/// ```
public final class TemporaryFolder: Sendable {
    /// The folder; it is created by whoever first writes in it (``Database`` creates its folders).
    public let url: URL

    /// Names a new folder.
    ///
    /// - Parameter prefix: The start of its name, such as the test suite's name.
    public init(_ prefix: String) {
        url = FileManager.default.temporaryDirectory.appendingPathComponent(
            "\(prefix)-\(UUID().uuidString)", isDirectory: true)
    }

    /// A file in the folder.
    ///
    /// - Parameter name: The file's name.
    /// - Returns: Its address.
    public func file(_ name: String) -> URL {
        url.appendingPathComponent(name)
    }

    deinit {
        // A database closing on its own queue as the test ends can still add a file (a rollback
        // journal, a WAL index) between the removal listing the folder and removing it, which then
        // fails as "not empty"; going again removes the late file. Once the folder is gone nothing
        // comes back: SQLite never makes folders.
        for _ in 0..<10 where FileManager.default.fileExists(atPath: url.path) {
            try? FileManager.default.removeItem(at: url)
        }
    }
}
