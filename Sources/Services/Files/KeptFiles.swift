public import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#else
    #error("KeptFiles is written for Linux and Apple platforms")
#endif

/// A folder of files kept by their content: each named by its SHA-256, readable by its owner
/// only. What an app attaches to a record offline is copied here at once, so that deleting or
/// changing the original changes nothing, and uploaded from here, resumably, later.
///
/// A copy is streamed in pieces of 1 MiB (memory does not grow with the file), hashed on the way,
/// written to a temporary file beside its final name, flushed to the disk, then renamed: the folder
/// never holds half a file under a digest's name, and a failure (a full disk) leaves nothing. The
/// same content kept twice is one file.
///
/// ```swift
/// let files = KeptFiles(folder: databaseURL.deletingLastPathComponent().appendingPathComponent("Files"))
/// let receipt = try files.keep(copyOf: pickedURL)   // receipt.sha256, receipt.size
/// ```
public struct KeptFiles: Sendable {
    /// The folder, made (owner-only) at the first file kept.
    public let folder: URL
    /// The reads, writes and flushes of its files: a test's faults.
    let calls: DescriptorCalls

    /// The folder of kept files at `folder`.
    ///
    /// - Parameter folder: Where the files are kept; beside the database, in an app's own
    ///   container (or the group container its extensions share).
    public init(folder: URL) {
        self.init(folder: folder, calls: .system)
    }

    init(folder: URL, calls: DescriptorCalls) {
        self.folder = folder
        self.calls = calls
    }

    /// What went wrong keeping a file.
    public struct Failure: Error, CustomStringConvertible, Sendable {
        /// The file being read or written.
        public let path: String
        /// What the system said (`strerror`), such as "No space left on device".
        public let reason: String
        /// The `errno` the system gave.
        public let code: Int32

        /// The failure in words: the path and the reason.
        public var description: String { "could not keep \(path): \(reason)" }
    }

    /// Copies the file at `source` into the folder, or finds the copy kept already.
    ///
    /// - Parameter source: The user's file; it is only read.
    /// - Returns: The kept copy.
    /// - Throws: ``Failure`` when `source` cannot be read (missing, a folder, no permission) or the
    ///   copy cannot be written (a full disk); nothing is left in the folder then.
    public func keep(copyOf source: URL) throws -> KeptFile {
        let input = open(source.path, O_RDONLY | O_CLOEXEC)
        guard input != -1 else { throw Self.failure(source.path) }
        defer { _ = close(input) }
        var status = stat()
        guard fstat(input, &status) == 0 else { throw Self.failure(source.path) }
        guard status.st_mode & S_IFMT == S_IFREG else {
            throw Failure(path: source.path, reason: "not a regular file", code: EISDIR)
        }
        try makeFolder()
        let temporary = folder.appendingPathComponent(".keeping-\(getpid())-\(UUID().uuidString)").path
        let output = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard output != -1 else { throw Self.failure(temporary) }
        do {
            defer { _ = close(output) }
            let (sha256, size) = try copy(from: input, source.path, to: output, temporary)
            guard calls.fsync(output) == 0 else { throw Self.failure(temporary) }
            let kept = url(sha256: sha256)
            // The same content kept before is the same file: rename replaces it with equal bytes.
            guard rename(temporary, kept.path) == 0 else { throw Self.failure(kept.path) }
            return KeptFile(sha256: sha256, size: size, url: kept)
        } catch {
            _ = unlink(temporary)
            throw error
        }
    }

    /// The kept file of `sha256`, when the folder has it.
    ///
    /// - Parameter sha256: The digest, lowercase hex.
    /// - Returns: The file, or `nil`.
    public func file(sha256: String) -> KeptFile? {
        guard Self.isDigest(sha256) else { return nil }
        let url = url(sha256: sha256)
        var status = stat()
        guard stat(url.path, &status) == 0 else { return nil }
        return KeptFile(sha256: sha256, size: Int64(status.st_size), url: url)
    }

    /// Removes the kept file of `sha256`; one already gone is not an error.
    ///
    /// - Parameter sha256: The digest, lowercase hex.
    /// - Throws: ``Failure`` when the file is there and cannot be removed.
    public func remove(sha256: String) throws {
        guard Self.isDigest(sha256) else { return }
        let path = url(sha256: sha256).path
        guard unlink(path) == 0 || errno == ENOENT else { throw Self.failure(path) }
    }

    /// The name a digest's file has in the folder.
    func url(sha256: String) -> URL {
        folder.appendingPathComponent(sha256)
    }

    /// Whether `text` is a SHA-256 in lowercase hex: never a path of another folder.
    static func isDigest(_ text: String) -> Bool {
        text.utf8.count == 64
            && text.utf8.allSatisfy { (0x30...0x39).contains($0) || (0x61...0x66).contains($0) }
    }

    /// Copies `input` to `output` in pieces, hashing them; returns the digest and the size.
    private func copy(
        from input: Int32, _ inputPath: String, to output: Int32, _ outputPath: String
    ) throws -> (String, Int64) {
        var hash = SHA256()
        var size: Int64 = 0
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 1 << 20, alignment: 16)
        defer { buffer.deallocate() }
        while true {
            let count = calls.readSome(input, into: buffer)
            guard count != -1 else { throw Self.failure(inputPath) }
            if count == 0 { break }
            let piece = UnsafeRawBufferPointer(rebasing: buffer[0..<count])
            hash.update(piece)
            size += Int64(count)
            guard calls.writeAll(piece, to: output) else { throw Self.failure(outputPath) }
        }
        return (hash.finalizedHex(), size)
    }

    /// Makes the folder, owner-only, when it is missing.
    func makeFolder() throws {
        do {
            try FileManager.default.createDirectory(
                at: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        } catch {
            throw Failure(path: folder.path, reason: "\(error.localizedDescription)", code: EACCES)
        }
    }

    /// The failure `errno` describes, for `path`.
    static func failure(_ path: String) -> Failure {
        let code = errno
        return Failure(path: path, reason: String(cString: strerror(code)), code: code)
    }
}
