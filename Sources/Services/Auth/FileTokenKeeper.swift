public import Foundation

/// A sign-in kept in a file readable and writable by its owner only (mode 0600), written whole
/// or not at all.
public struct FileTokenKeeper: TokenKeeper {
    /// The file.
    public let url: URL

    /// Makes the keeper.
    ///
    /// - Parameter url: The file, beside the app's database for the demo.
    public init(url: URL) {
        self.url = url
    }

    /// The grant in the file, or `nil` when there is no file.
    ///
    /// - Returns: The grant.
    /// - Throws: Why the file could not be read or decoded.
    public func load() throws -> TokenGrant? {
        guard FileManager.default.fileExists(atPath: url.path) else { return nil }
        return try JSONDecoder().decode(TokenGrant.self, from: Data(contentsOf: url))
    }

    /// Writes `grant` to a new file made readable by its owner only, then puts it in place.
    ///
    /// - Parameter grant: The grant.
    /// - Throws: Why the file could not be written.
    public func save(_ grant: TokenGrant) throws {
        let data = try JSONEncoder().encode(grant)
        // Made empty with the owner's permissions first, so that no other user can open it while
        // it is written.
        let temporary = url.appendingPathExtension("new")
        try FileManager.default.createDirectory(
            at: url.deletingLastPathComponent(), withIntermediateDirectories: true,
            attributes: [.posixPermissions: 0o700])
        guard
            FileManager.default.createFile(
                atPath: temporary.path, contents: nil, attributes: [.posixPermissions: 0o600])
        else { throw CocoaError(.fileWriteNoPermission) }
        let handle = try FileHandle(forWritingTo: temporary)
        defer { try? handle.close() }
        try handle.write(contentsOf: data)
        try handle.synchronize()
        if FileManager.default.fileExists(atPath: url.path) {
            _ = try FileManager.default.replaceItemAt(url, withItemAt: temporary)
        } else {
            try FileManager.default.moveItem(at: temporary, to: url)
        }
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: url.path)
    }

    /// Removes the file.
    ///
    /// - Throws: Why it could not be removed.
    public func erase() throws {
        guard FileManager.default.fileExists(atPath: url.path) else { return }
        try FileManager.default.removeItem(at: url)
    }
}
