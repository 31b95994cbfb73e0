/// Where an attachment's upload stands, for a screen: "Uploading receipt.pdf: 3.2 of 8 MB".
public enum OfflineAttachmentState: Sendable, Equatable {
    /// Kept here, not sent yet (offline, or another upload goes first).
    case waiting
    /// Under way: `sent` of `size` bytes are with the API.
    case uploading(sent: Int64, of: Int64)
    /// The API holds it whole; the records that name it go with its id.
    case uploaded
    /// The API refused it, or it failed too often: held, with the reason, until retried or
    /// discarded; the records that name it wait with it.
    case held(reason: String)
    /// No attachment of this id is known here.
    case unknown
}
