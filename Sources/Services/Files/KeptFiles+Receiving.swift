import Foundation
import Promises

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

extension KeptFiles {
    /// A file arriving piece by piece (a download), written beside its final name and hashed as it
    /// comes; kept under its digest only when that is the digest expected. Used by one download at a
    /// time, on its promise's steps.
    final class Receiving: Sendable {
        let files: KeptFiles
        let path: String
        private let descriptor: Int32
        private let progress = Locked<(hash: SHA256, size: Int64)>((SHA256(), 0))

        /// Starts a temporary file in the folder.
        init(_ files: KeptFiles) throws {
            try files.makeFolder()
            self.files = files
            path = files.folder.appendingPathComponent(".receiving-\(getpid())-\(UUID().uuidString)").path
            descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
            guard descriptor != -1 else { throw KeptFiles.failure(path) }
        }

        deinit {
            _ = close(descriptor)
            _ = unlink(path)  // gone already when it was kept
        }

        /// How many bytes arrived.
        var size: Int64 { progress.withLock { $0.size } }

        /// Writes the next piece.
        func append(_ piece: Data) throws {
            try piece.withUnsafeBytes { (bytes: UnsafeRawBufferPointer) in
                guard files.calls.writeAll(bytes, to: descriptor) else { throw KeptFiles.failure(path) }
                progress.withLock {
                    $0.hash.update(bytes)
                    $0.size += Int64(bytes.count)
                }
            }
        }

        /// Keeps the file under its digest when it is `sha256`.
        ///
        /// - Returns: The kept file, or `nil` when the bytes are not the ones expected (the
        ///   temporary file is then removed with this object); the digest of what arrived.
        func keep(expecting sha256: String) throws -> (kept: KeptFile?, digest: String) {
            let (digest, size) = progress.withLock { progress in
                var hash = progress.hash
                return (hash.finalizedHex(), progress.size)
            }
            guard digest == sha256 else { return (nil, digest) }
            guard files.calls.fsync(descriptor) == 0 else { throw KeptFiles.failure(path) }
            let kept = files.url(sha256: digest)
            guard rename(path, kept.path) == 0 else { throw KeptFiles.failure(kept.path) }
            return (KeptFile(sha256: digest, size: size, url: kept), digest)
        }
    }
}
