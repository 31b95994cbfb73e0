/// A file a record carries, as its body names it: `{"id", "name", "contentType", "size",
/// "sha256"}` in a field such as `"attachments"`.
///
/// Made by ``OfflineAttachments/attach(fileAt:name:contentType:)``, its ``id`` is this device's
/// until the file is uploaded; the record's change then goes with the API's upload id in its
/// place, as a parent's id is rewritten (``OfflineReference/attachments(_:to:)``).
public struct OfflineAttachment: Codable, Sendable, Hashable, Identifiable {
    /// The API's upload id, or this device's until the upload is complete.
    public var id: String
    /// The file's name, such as `receipt.pdf`.
    public var name: String
    /// Its media type, such as `application/pdf`.
    public var contentType: String
    /// Its size in bytes.
    public var size: Int64
    /// The SHA-256 of its bytes, lowercase hex: a download is checked against it.
    public var sha256: String

    /// An attachment as a record names it.
    ///
    /// - Parameters:
    ///   - id: The upload's id (this device's until it is uploaded).
    ///   - name: The file's name.
    ///   - contentType: Its media type.
    ///   - size: Its size in bytes.
    ///   - sha256: The SHA-256 of its bytes, lowercase hex.
    public init(id: String, name: String, contentType: String, size: Int64, sha256: String) {
        (self.id, self.name, self.contentType, self.size, self.sha256) = (id, name, contentType, size, sha256)
    }
}
