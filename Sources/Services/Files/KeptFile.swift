public import Foundation

/// A file kept in a ``KeptFiles`` folder: a copy of the user's file, named by its SHA-256, that
/// stays as it was whatever happens to the original.
public struct KeptFile: Sendable, Hashable, Codable {
    /// The SHA-256 of its bytes, in lowercase hex: its name in the folder, and what an upload's
    /// metadata and a download's check carry.
    public let sha256: String
    /// Its size in bytes.
    public let size: Int64
    /// Where it is: the folder's file of that name.
    public let url: URL

    /// A kept file as a folder names it.
    ///
    /// - Parameters:
    ///   - sha256: The digest of its bytes, lowercase hex.
    ///   - size: Its size in bytes.
    ///   - url: Where it is.
    public init(sha256: String, size: Int64, url: URL) {
        self.sha256 = sha256
        self.size = size
        self.url = url
    }
}
