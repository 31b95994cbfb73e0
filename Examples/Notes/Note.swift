public import OfflineKit

/// A note the user writes, reads and edits, online or not.
public struct Note: OfflineResource, Equatable {
    /// The API's identifier, or a local one until the API has the note.
    public var id: String?
    /// The API's version of the note.
    public var version: String?
    /// Its title, shown in the list.
    public var title: String
    /// What the note says.
    public var text: String
    /// Whether it is kept at the top: new in the second version of the app.
    public var pinned: Bool

    /// Makes a note; a new one has no identifier or version yet.
    public init(id: String? = nil, version: String? = nil, title: String, text: String, pinned: Bool = false)
    {
        self.id = id
        self.version = version
        self.title = title
        self.text = text
        self.pinned = pinned
    }

    /// The notes' model: the first version of the app kept notes without `pinned`; its notes and
    /// the changes it queued are brought over, unpinned, before anything is shown or sent.
    public static let model = (version: 2, steps: [OfflineModelStep.adding("pinned", default: false)])
}
