import Foundation
import PromiseMVPTesting
import Testing

@testable import Services

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// `KeptFiles`: a copy named by its digest, owner-only, that outlives the original, and never half
/// a file.
@Suite("Kept files")
struct KeptFilesTests {
    let folder = TemporaryFolder("KeptFilesTests")
    var files: KeptFiles { KeptFiles(folder: folder.file("Files")) }

    /// What the folder holds, by name.
    func held() -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: folder.file("Files").path)) ?? []).sorted()
    }

    func userFile(_ name: String, _ text: String) throws -> URL {
        try FileManager.default.createDirectory(at: folder.url, withIntermediateDirectories: true)
        let url = folder.file(name)
        try Data(text.utf8).write(to: url)
        return url
    }

    @Test("a kept file is a copy named by its SHA-256, owner-only, that outlives the original")
    func copyOutlivesTheOriginal() throws {
        // Given
        let original = try userFile("receipt.pdf", "abc")
        // When
        let kept = try files.keep(copyOf: original)
        try FileManager.default.removeItem(at: original)
        // Then
        #expect(kept.sha256 == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        #expect(kept.size == 3)
        #expect(kept.url.lastPathComponent == kept.sha256)
        #expect(try Data(contentsOf: kept.url) == Data("abc".utf8))
        #expect(try Self.mode(kept.url.path) == 0o600)
        #expect(try Self.mode(folder.file("Files").path) == 0o700)
        #expect(files.file(sha256: kept.sha256) == kept)
    }

    @Test(
        "a file changed after it was kept leaves the kept copy as it was; the same bytes twice are one file")
    func changedOriginal() throws {
        // Given
        let original = try userFile("scan.png", "first")
        let first = try files.keep(copyOf: original)
        // When
        try Data("second".utf8).write(to: original)
        let second = try files.keep(copyOf: original)
        let again = try files.keep(copyOf: original)
        // Then
        #expect(try Data(contentsOf: first.url) == Data("first".utf8))
        #expect(second.sha256 != first.sha256 && again == second)
        #expect(held() == [first.sha256, second.sha256].sorted())
    }

    @Test("a missing or unreadable file is a clear error, and nothing is kept")
    func missingFile() throws {
        // Given
        let missing = folder.file("gone.pdf")
        try FileManager.default.createDirectory(
            at: folder.file("a folder"), withIntermediateDirectories: true)
        // When
        let gone = #expect(throws: KeptFiles.Failure.self) { try files.keep(copyOf: missing) }
        let notAFile = #expect(throws: KeptFiles.Failure.self) {
            try files.keep(copyOf: folder.file("a folder"))
        }
        // Then
        #expect(gone?.code == ENOENT)
        #expect(gone?.description == "could not keep \(missing.path): No such file or directory")
        #expect(notAFile?.description.contains("not a regular file") == true)
        #expect(held() == [])
    }

    @Test("a full disk while copying is a clear error, and leaves nothing half-kept")
    func fullDisk() async throws {
        // Given: a disk that takes 1.5 MiB, then is full
        let original = try userFile("video.mov", String(repeating: "v", count: 3 << 20))
        let room = Locked(3 << 19)
        let full = KeptFiles(
            folder: folder.file("Files"),
            calls: DescriptorCalls(write: { descriptor, bytes in
                let allowed = room.withLock { room in
                    defer { room -= min(room, bytes.count) }
                    return min(room, bytes.count)
                }
                guard allowed > 0 else {
                    errno = ENOSPC
                    return -1
                }
                return write(descriptor, bytes.baseAddress, allowed)
            }))
        // When: on a thread of its own (megabytes hashed; the test pool has two threads)
        let error = await BlockingWork.run { () -> KeptFiles.Failure? in
            do {
                _ = try full.keep(copyOf: original)
                return nil
            } catch {
                return error as? KeptFiles.Failure
            }
        }
        // Then
        #expect(error?.code == ENOSPC)
        #expect(error?.description.contains("No space left on device") == true)
        #expect(held() == [])
    }

    @Test("a removed file is gone; removing it again, or a name that is not a digest, does nothing")
    func remove() throws {
        // Given
        let kept = try files.keep(copyOf: try userFile("note.txt", "hello"))
        // When
        try files.remove(sha256: kept.sha256)
        try files.remove(sha256: kept.sha256)
        try files.remove(sha256: "../note.txt")
        // Then
        #expect(files.file(sha256: kept.sha256) == nil)
        #expect(FileManager.default.fileExists(atPath: folder.file("note.txt").path))
        #expect(held() == [])
    }

    @Test(
        "only a digest names a kept file: a path out of the folder or a short name is none; one that cannot go is an error"
    )
    func onlyDigestsName() throws {
        // Given: a kept file, a file beside the folder, a short hex name and a folder named as a digest inside
        let kept = try files.keep(copyOf: try userFile("note.txt", "hello"))
        try Data("other".utf8).write(to: folder.file("Files").appendingPathComponent("abc"))
        let folderNamed = String(repeating: "a", count: 64)
        try FileManager.default.createDirectory(
            at: folder.file("Files").appendingPathComponent(folderNamed), withIntermediateDirectories: true)

        // When
        let outside = files.file(sha256: "../note.txt")
        let short = files.file(sha256: "abc")
        var removal: (any Error)?
        do { try files.remove(sha256: folderNamed) } catch { removal = error }

        // Then
        #expect(files.file(sha256: kept.sha256)?.size == 5)
        #expect(outside == nil && short == nil)
        #expect(removal is KeptFiles.Failure)
    }

    @Test(
        "a write interrupted is tried again and a short one goes on; one that makes no progress is an error")
    func interruptedAndShortWrites() async throws {
        // Given: a disk whose first write is interrupted and whose writes take 1,000 bytes at most
        let original = try userFile("photo.jpg", String(repeating: "p", count: 5_000))
        let first = InterruptedFirstCall()
        let choppy = KeptFiles(
            folder: folder.file("Files"),
            calls: DescriptorCalls(write: { descriptor, bytes in
                first.interrupt() ?? write(descriptor, bytes.baseAddress, min(bytes.count, 1_000))
            }))
        let stuck = KeptFiles(folder: folder.file("Stuck"), calls: DescriptorCalls(write: { _, _ in 0 }))

        // When
        let kept = try choppy.keep(copyOf: original)
        var stuckError: (any Error)?
        do { _ = try stuck.keep(copyOf: original) } catch { stuckError = error }

        // Then: the whole file, and the stuck disk an error with nothing left
        #expect(try Data(contentsOf: kept.url) == Data(contentsOf: original))
        #expect(first.calls == 6)
        #expect(stuckError is KeptFiles.Failure)
        #expect(
            ((try? FileManager.default.contentsOfDirectory(atPath: folder.file("Stuck").path)) ?? []).isEmpty)
    }

    @Test("a read interrupted is made again; one that fails is the original's error, and nothing is kept")
    func interruptedAndFailedReads() async throws {
        // Given: a disk whose first read is interrupted, and one whose reads fail
        let original = try userFile("photo.jpg", String(repeating: "p", count: 5_000))
        let first = InterruptedFirstCall()
        let interrupted = KeptFiles(
            folder: folder.file("Files"),
            calls: DescriptorCalls(read: { descriptor, buffer in
                first.interrupt() ?? read(descriptor, buffer.baseAddress, buffer.count)
            }))
        let failing = KeptFiles(
            folder: folder.file("Files"),
            calls: DescriptorCalls(read: { _, _ in
                errno = EIO
                return -1
            }))

        // When
        var failure: KeptFiles.Failure?
        do { _ = try failing.keep(copyOf: original) } catch { failure = error as? KeptFiles.Failure }
        let kept = try interrupted.keep(copyOf: original)

        // Then: the failed copy names the original and left nothing; the other is whole
        #expect(failure?.code == EIO && failure?.path == original.path)
        #expect(try Data(contentsOf: kept.url) == Data(contentsOf: original))
        #expect(held() == [kept.sha256])
    }

    @Test("a flush that fails keeps nothing under the digest, for a copy and for a download")
    func failedFlush() async throws {
        // Given: a disk whose flushes fail
        let original = try userFile("photo.jpg", "bytes")
        let unflushed = KeptFiles(
            folder: folder.file("Files"),
            calls: DescriptorCalls(fsync: { _ in
                errno = EIO
                return -1
            }))
        let receiving = try KeptFiles.Receiving(unflushed)
        try receiving.append(Data("bytes".utf8))

        // When
        var copyFailure: KeptFiles.Failure?
        do { _ = try unflushed.keep(copyOf: original) } catch { copyFailure = error as? KeptFiles.Failure }
        var downloadFailure: KeptFiles.Failure?
        do {
            _ = try receiving.keep(expecting: SHA256.hex(of: Data("bytes".utf8)))
        } catch {
            downloadFailure = error as? KeptFiles.Failure
        }

        // Then
        #expect(copyFailure?.code == EIO && downloadFailure?.code == EIO)
        #expect(held().count == 1 && held().allSatisfy { $0.hasPrefix(".receiving-") })
    }

    @Test("marking a name that is not a digest used touches nothing, inside the folder or out")
    func markUsedOfDigestsOnly() throws {
        // Given: a file beside the folder, dated long ago
        _ = try files.keep(copyOf: try userFile("note.txt", "hello"))
        let beside = folder.file("note.txt")
        let longAgo = Date(timeIntervalSince1970: 1_000_000_000)
        try FileManager.default.setAttributes([.modificationDate: longAgo], ofItemAtPath: beside.path)

        // When
        files.markUsed(sha256: "../note.txt")

        // Then
        let date = try FileManager.default.attributesOfItem(atPath: beside.path)[.modificationDate] as? Date
        #expect(date == longAgo)
    }

    static func mode(_ path: String) throws -> mode_t {
        var status = stat()
        guard stat(path, &status) == 0 else { throw POSIXError(.ENOENT) }
        return status.st_mode & 0o777
    }
}
