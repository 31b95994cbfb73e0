import Foundation
import PromiseMVPTesting
import Testing

@testable import Services

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A file is replaced whole, and two processes replacing it at once each put their own content in
/// place: neither writes, unlinks or renames the other's half-written file.
@Suite("FileReplacement")
struct FileReplacementTests {
    let folder = TemporaryFolder("FileReplacementTests")

    init() throws {
        try FileManager.default.createDirectory(at: folder.url, withIntermediateDirectories: true)
    }

    @Test("two processes saving one file at once each put their whole content in place, the last one kept")
    func twoProcessesSavingAtOnce() throws {
        // Given: a saved file
        let file = folder.file("signin")
        try FileReplacement.replace(file, with: Data("first".utf8))

        // When: process 111 has written its content and, before it renames it, process 222 saves
        var inner: (any Error)?
        try FileReplacement.replace(file, with: Data("from 111".utf8), process: 111) {
            do {
                try FileReplacement.replace(file, with: Data("from 222".utf8), process: 222)
                #expect(try String(contentsOf: file, encoding: .utf8) == "from 222")
            } catch {
                inner = error
            }
        }

        // Then: both succeeded; the one that renamed last is in place, and no half-written file is left
        #expect(inner == nil, "\(String(describing: inner))")
        #expect(try String(contentsOf: file, encoding: .utf8) == "from 111")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.url.path) == ["signin"])
    }

    @Test("a save that fails before its rename leaves the file as it was and nothing beside it")
    func failedSaveLeavesTheFile() throws {
        // Given
        let file = folder.file("signin")
        try FileReplacement.replace(file, with: Data("kept".utf8))

        // When: the save fails once its content is written
        #expect(throws: POSIXError.self) {
            try FileReplacement.replace(file, with: Data("lost".utf8)) { throw POSIXError(.ENOSPC) }
        }

        // Then
        #expect(try String(contentsOf: file, encoding: .utf8) == "kept")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.url.path) == ["signin"])
    }

    @Test(
        "a save into a folder that is gone fails with the open's error, and the mode asked is kept whatever the umask"
    )
    func openErrorAndMode() throws {
        // Given
        let missing = folder.file("gone").appendingPathComponent("signin")
        let shared = folder.file("shared")

        // When
        var failure: (any Error)?
        do { try FileReplacement.replace(missing, with: Data("lost".utf8)) } catch { failure = error }
        try FileReplacement.replace(shared, with: Data("kept".utf8), permissions: 0o660)

        // Then: the missing folder named as such (not a later step's error); group write kept,
        // though the umask (022 here) takes it away from a new file
        #expect((failure as? POSIXError)?.code == .ENOENT)
        let mode = try FileManager.default.attributesOfItem(atPath: shared.path)[.posixPermissions] as? Int
        #expect(mode == 0o660)
    }

    @Test("a save whose writes are interrupted or short still puts its whole content in place")
    func interruptedAndShortWrites() throws {
        // Given: a disk whose first write is interrupted and whose writes take 3 bytes at most
        let file = folder.file("signin")
        let first = InterruptedFirstCall()
        let choppy = DescriptorCalls(write: { descriptor, bytes in
            first.interrupt() ?? write(descriptor, bytes.baseAddress, min(bytes.count, 3))
        })

        // When
        try FileReplacement.replace(file, with: Data("access-token".utf8), calls: choppy)

        // Then: the interrupted call, then four of 3 bytes
        #expect(try String(contentsOf: file, encoding: .utf8) == "access-token")
        #expect(first.calls == 5)
    }

    @Test("a full disk, a write that makes no progress, or a failed flush fails the save and leaves the file")
    func failedWritesLeaveTheFile() throws {
        // Given
        let file = folder.file("signin")
        try FileReplacement.replace(file, with: Data("kept".utf8))
        let full = DescriptorCalls(write: { _, _ in
            errno = ENOSPC
            return -1
        })
        let stuck = DescriptorCalls(write: { _, _ in 0 })
        let unflushed = DescriptorCalls(fsync: { _ in
            errno = EIO
            return -1
        })

        // When
        let failures = [full, stuck, unflushed].map { calls -> POSIXError? in
            do {
                try FileReplacement.replace(file, with: Data("lost".utf8), calls: calls)
                return nil
            } catch {
                return error as? POSIXError
            }
        }

        // Then: each an error (the full disk's and the flush's named), the file as it was
        #expect(failures[0]?.code == .ENOSPC && failures[1] != nil && failures[2]?.code == .EIO)
        #expect(try String(contentsOf: file, encoding: .utf8) == "kept")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.url.path) == ["signin"])
    }
}
