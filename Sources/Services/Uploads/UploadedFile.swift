public import Foundation

/// A file the API holds whole: where it is, and the id a record names it by.
public struct UploadedFile: Sendable, Hashable, Codable {
    /// The upload's URL, as the API gave it at its creation (`Location`).
    public let location: URL
    /// The API's id of the upload: the last segment of ``location``, which a record's body names.
    public let id: String
    /// Its size in bytes.
    public let size: Int64

    /// The upload at `location`.
    ///
    /// - Parameters:
    ///   - location: Where the API keeps it.
    ///   - size: Its size in bytes.
    public init(location: URL, size: Int64) {
        self.location = location
        self.id = location.lastPathComponent
        self.size = size
    }
}
