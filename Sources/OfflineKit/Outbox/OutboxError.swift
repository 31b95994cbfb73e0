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
    }

    /// The sentence the user reads, naming both identifiers.
    public var description: String {
        "the API gave \(localID) the identifier \(remoteID), which another change here uses"
    }
}
