public import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A sign-in kept in a file readable and writable by its owner only (mode 0600), written whole
/// or not at all.
public struct FileTokenKeeper: TokenKeeper {
    /// The file.
    public let url: URL
    /// Takes the exclusive lock on the lock file's descriptor: `flock(2)`; tests put in a call that
    /// fails, as a signal or the kernel would make it.
    var lock: @Sendable (Int32) -> Int32 = { flock($0, LOCK_EX) }

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

    /// Puts `grant` in place of the file's, whole or not at all (one `rename(2)`): the file is
    /// readable by its owner only from its first byte.
    ///
    /// - Parameter grant: The grant.
    /// - Throws: ``FileTokenKeeper/WriteError`` naming the file and why (a full disk, a folder
    ///   that cannot be written); the grant kept before stays.
    public func save(_ grant: TokenGrant) throws {
        let data = try JSONEncoder().encode(grant)
        do {
            try FileManager.default.createDirectory(
                at: url.deletingLastPathComponent(), withIntermediateDirectories: true,
                attributes: [.posixPermissions: 0o700])
            try FileReplacement.replace(url, with: data)
        } catch {
            throw WriteError(path: url.path, reason: Self.reason(error))
        }
    }

    /// Begins a refresh that no other process using this file runs meanwhile: an exclusive
    /// `flock(2)` on a file beside it (`.lock`), held until the lease ends. The lock goes with the
    /// process: one that dies mid-refresh holds nobody back.
    ///
    /// - Returns: The lease.
    /// - Throws: ``FileTokenKeeper/WriteError`` when the lock file cannot be opened.
    public func beginRefresh() throws -> RefreshLease {
        let path = url.path + ".lock"
        try? FileManager.default.createDirectory(
            at: url.deletingLastPathComponent(), withIntermediateDirectories: true,
            attributes: [.posixPermissions: 0o700])
        let descriptor = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else {
            throw WriteError(path: path, reason: Self.reason(POSIXError(Self.errorCode())))
        }
        while lock(descriptor) != 0 {
            guard errno == EINTR else {
                let code = Self.errorCode()
                _ = close(descriptor)
                throw WriteError(path: path, reason: Self.reason(POSIXError(code)))
            }
        }
        return RefreshLease { _ = close(descriptor) }  // closing the file releases its lock
    }

    /// A file that could not be written: which, and why, in words (never its content).
    public struct WriteError: Error, Equatable, CustomStringConvertible {
        /// The file.
        public let path: String
        /// Why, such as "No space left on device".
        public let reason: String

        /// "cannot write PATH: REASON".
        public var description: String { "cannot write \(path): \(reason)" }
    }

    private static func errorCode() -> POSIXErrorCode {
        POSIXErrorCode(rawValue: errno) ?? .EIO
    }

    /// The system's words for a POSIX error ("No space left on device"); else the error's own.
    private static func reason(_ error: any Error) -> String {
        if let posix = error as? POSIXError { return String(cString: strerror(posix.code.rawValue)) }
        return error.localizedDescription
    }

    /// Removes the file.
    ///
    /// - Throws: Why it could not be removed.
    public func erase() throws {
        guard FileManager.default.fileExists(atPath: url.path) else { return }
        try FileManager.default.removeItem(at: url)
    }
}
