/// One melody as the list shows it: text only, formatted by the presenter.
public struct MelodyRow: Equatable, Sendable, Identifiable {
    /// The melody's identifier, for the view's bookkeeping.
    public let id: Int
    /// The title.
    public let title: String
    /// The artist.
    public let artist: String
    /// The album.
    public let album: String
    /// The duration, such as `3:07` or `1:02:03`.
    public let duration: String

    /// Makes a row.
    ///
    /// - Parameters:
    ///   - id: The melody's identifier.
    ///   - title: The title.
    ///   - artist: The artist.
    ///   - album: The album.
    ///   - duration: The formatted duration.
    public init(id: Int, title: String, artist: String, album: String, duration: String) {
        self.id = id
        self.title = title
        self.artist = artist
        self.album = album
        self.duration = duration
    }
}
