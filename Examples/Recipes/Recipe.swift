/// A recipe as the API sends it.
public struct Recipe: Codable, Equatable, Sendable {
    /// What the dish is called.
    public let name: String
    /// How long it takes, in minutes.
    public let minutes: Int

    /// Makes a recipe.
    ///
    /// - Parameters:
    ///   - name: What the dish is called.
    ///   - minutes: How long it takes.
    public init(name: String, minutes: Int) {
        self.name = name
        self.minutes = minutes
    }
}
