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
        try? FileManager.default.removeItem(at: url)
    }
}
