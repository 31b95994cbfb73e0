import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// What opening a database file made on disk, so that an open that fails leaves nothing behind.
struct DatabaseFile {
    let url: URL
    /// The folders this open created, outermost first.
    private(set) var createdFolders: [URL] = []
    /// Whether this open created the (empty) file.
    private(set) var createdFile = false
    /// The WAL and shared-memory files that did not exist before this open.
    private let newSidecars: [URL]

    /// Creates the file (readable by its owner only) and its folders where they are missing.
    init(preparing url: URL) throws {
        self.url = url
        let manager = FileManager.default
        newSidecars = ["-wal", "-shm"].map { URL(fileURLWithPath: url.path + $0) }
            .filter { !manager.fileExists(atPath: $0.path) }
        var missing: [URL] = []
        var folder = url.deletingLastPathComponent()
        while !manager.fileExists(atPath: folder.path) && folder.path != "/" {
            missing.insert(folder, at: 0)
            folder = folder.deletingLastPathComponent()
        }
        do {
            try manager.createDirectory(
                at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            createdFolders = missing
        } catch {
            Self.removeEmptyFolders(missing)
            throw DatabaseError(
                kind: .cannotOpen, message: "cannot create folder: \(error.localizedDescription)",
                path: url.path)
        }
        // A symbolic link to nothing: SQLite would make the file where it points, with the
        // umask's permissions (readable by everyone, as its -wal and -shm, which copy them).
        // (The link is in a folder that was there: no folder was made for it.)
        if Self.isDanglingLink(url.path) {
            throw DatabaseError(
                kind: .cannotOpen,
                message:
                    "it is a symbolic link to a file that does not exist; no file is made where it points",
                path: url.path)
        }
        // Created with O_EXCL, never replaced: another process opening the same new file at the
        // same moment may already be writing to it. Owner-only whatever the umask: set again with
        // fchmod, which the umask does not narrow or widen. SQLite gives the -wal and -shm files
        // the database's permissions.
        let descriptor = open(url.path, O_WRONLY | O_CREAT | O_EXCL, 0o600)
        if descriptor != -1 {
            fchmod(descriptor, 0o600)
            close(descriptor)
            createdFile = true
        } else if errno != EEXIST {
            let reason = String(cString: strerror(errno))
            Self.removeEmptyFolders(createdFolders)
            throw DatabaseError(
                kind: .cannotOpen, message: "cannot create the file: \(reason)", path: url.path)
        }
    }

    /// Removes what this open made, after it failed: the file if it is still empty, the folders if
    /// they are, and the WAL and shared-memory files this user made beside a file another user
    /// owns (left there, they would stop the owner's next write). Nothing another process may be
    /// using is touched.
    func cleanUpAfterFailedOpen() {
        let manager = FileManager.default
        for sidecar in newSidecars
        where Self.owner(of: sidecar) == getuid() && Self.owner(of: url) != getuid() {
            try? manager.removeItem(at: sidecar)
        }
        if createdFile, let size = (try? manager.attributesOfItem(atPath: url.path))?[.size] as? NSNumber,
            size.intValue == 0
        {
            try? manager.removeItem(at: url)
        }
        Self.removeEmptyFolders(createdFolders)
    }

    /// Which file a path names: its device and inode, or `nil` when there is none.
    struct Identity: Equatable, Sendable {
        let device: UInt64
        let inode: UInt64
    }

    /// The file `path` names now.
    static func identity(of path: String) -> Identity? {
        var status = stat()
        guard stat(path, &status) == 0 else { return nil }
        // `dev_t` is a signed 32-bit integer on Apple platforms: its bits, not its value, which may be
        // negative (and `UInt64(_:)` would trap on it).
        return Identity(
            device: UInt64(truncatingIfNeeded: status.st_dev),
            inode: UInt64(truncatingIfNeeded: status.st_ino))
    }

    /// Whether `path` still names the file that was opened (`identity`): not deleted, nor replaced
    /// by another file. A database opened without an identity is taken as still there.
    static func isStillOpened(_ path: String, identity: Identity?) -> Bool {
        guard let identity else { return true }
        return Self.identity(of: path) == identity
    }

    /// Whether `path` is a symbolic link whose target does not exist.
    static func isDanglingLink(_ path: String) -> Bool {
        var link = stat()
        var target = stat()
        return lstat(path, &link) == 0 && (link.st_mode & S_IFMT) == S_IFLNK && stat(path, &target) != 0
    }

    private static func owner(of url: URL) -> uid_t? {
        var status = stat()
        return stat(url.path, &status) == 0 ? status.st_uid : nil
    }

    /// Removes `folders`, innermost first, each only if it is empty.
    private static func removeEmptyFolders(_ folders: [URL]) {
        for folder in folders.reversed() {
            rmdir(folder.path)
        }
    }
}
