import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#else
    #error("FileReplacement is written for Linux and Apple platforms")
#endif

/// The one way the package replaces a file: the new content is written whole to a file beside it
/// (made with the owner's permissions only, so nobody else can open it meanwhile), flushed to the
/// disk, then put in place by one `rename(2)`, and the folder flushed so that the rename itself
/// survives a power cut. A reader sees the old file or the new one, never a part or neither.
///
/// POSIX, the same on every platform: `FileManager.replaceItemAt` differs by platform (on Linux
/// it removed the original and then failed, which lost a sign-in at every token refresh).
enum FileReplacement {
    /// Puts `data` in place of the file at `url` (made when missing), readable and writable by
    /// its owner only; on failure the file is left as it was and the half-written one removed.
    ///
    /// - Parameters:
    ///   - url: The file.
    ///   - data: Its new content.
    ///   - permissions: The new file's mode; `0o600` by default.
    ///   - process: The process saving it (this one); a test names two.
    ///   - calls: The writes and the flush of the new file: a test's faults.
    ///   - beforeRename: Runs once the new content is on disk, just before it is put in place: a
    ///     test's other process saving the same file at that moment.
    /// - Throws: `POSIXError` saying which step failed (a full disk: `ENOSPC`).
    static func replace(
        _ url: URL, with data: Data, permissions: mode_t = 0o600, process: pid_t = getpid(),
        calls: DescriptorCalls = .system, beforeRename: () throws -> Void = {}
    ) throws {
        let folder = url.deletingLastPathComponent().path
        // Named for the process, so that two processes saving at once never write (or unlink)
        // one file: the other's half-written file is not this one's to touch.
        let temporary = "\(url.path).new-\(process)"
        _ = unlink(temporary)  // one a crash of this process number left
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, permissions)
        guard descriptor != -1 else { throw Self.error() }
        do {
            defer { _ = close(descriptor) }
            // The mode asked for, whatever the process's umask took away.
            guard fchmod(descriptor, permissions) == 0 else { throw Self.error() }
            guard data.withUnsafeBytes({ calls.writeAll($0, to: descriptor) }) else { throw Self.error() }
            guard calls.fsync(descriptor) == 0 else { throw Self.error() }
        } catch {
            _ = unlink(temporary)
            throw error
        }
        do {
            try beforeRename()
        } catch {
            _ = unlink(temporary)
            throw error
        }
        guard rename(temporary, url.path) == 0 else {
            let failure = Self.error()
            _ = unlink(temporary)
            throw failure
        }
        // The rename is an entry of the folder: flushed with it. A folder that cannot be opened
        // for reading (rare) keeps the rename in the system's cache: the file is in place.
        let directory = open(folder, O_RDONLY | O_CLOEXEC)
        if directory != -1 {
            _ = fsync(directory)
            _ = close(directory)
        }
    }

    /// The error `errno` names now.
    private static func error() -> POSIXError {
        POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO)
    }
}
