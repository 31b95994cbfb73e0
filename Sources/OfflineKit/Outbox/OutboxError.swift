import Services

/// Why the outbox could not apply what the API answered to one of its entries.
public struct OutboxError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The identifier the API gave the created resource.
    public let remoteID: String
    /// The resource this device created.
    public let localID: String

    /// The API gave a created resource an identifier that another resource here uses, with
    /// changes of its own still waiting: renaming would merge two resources into one, so nothing
    /// is renamed or deleted.
    init(identifierTaken remoteID: String, creating localID: String) {
        self.remoteID = remoteID
        self.localID = localID
        heldByCopy = false
    }

    /// The API gave a created resource the identifier of a resource the copy here already holds,
    /// which this change did not make (it was never sent before, or another create here was given
    /// that identifier): taking it would make two resources one, so nothing is replaced.
    init(identifierKept remoteID: String, creating localID: String) {
        self.remoteID = remoteID
        self.localID = localID
        heldByCopy = true
    }

    /// Whether the identifier is held by a resource of the copy rather than by a waiting change.
    let heldByCopy: Bool

    /// The sentence the user reads, naming both identifiers.
    public var description: String {
        heldByCopy
            ? "the API gave \(localID) the identifier \(remoteID), which another resource here already has"
            : "the API gave \(localID) the identifier \(remoteID), which another change here uses"
    }
}
