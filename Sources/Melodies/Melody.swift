/// A piece of music in the catalogue, as a listener would recognise it.
public struct Melody: Codable, Equatable, Hashable, Sendable, Identifiable {
    /// The catalogue's identifier.
    public let id: Int
    /// The title.
    public let title: String
    /// Who performs it.
    public let artist: String
    /// The album it appears on.
    public let album: String
    /// How long it plays, in whole seconds.
    public let durationSeconds: Int

    /// Makes a melody.
    ///
    /// - Parameters:
    ///   - id: The catalogue's identifier.
    ///   - title: The title.
    ///   - artist: Who performs it.
    ///   - album: The album it appears on.
    ///   - durationSeconds: How long it plays, in whole seconds.
    public init(id: Int, title: String, artist: String, album: String, durationSeconds: Int) {
        self.id = id
        self.title = title
        self.artist = artist
        self.album = album
        self.durationSeconds = durationSeconds
    }

    enum CodingKeys: String, CodingKey {
        case id, title, artist, album
        case durationSeconds = "duration"
    }
}
