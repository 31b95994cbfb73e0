import Foundation
import PromiseMVPTesting
import Testing

@testable import Services

/// The file keeper's edges: the refresh lease in a folder not made yet, a lock file that cannot be
/// opened, a lock interrupted or refused, and erasing what is not there.
@Suite("File token keeper: lease and erase")
struct FileTokenKeeperLeaseTests {
    let folder = TemporaryFolder("FileTokenKeeperLeaseTests")

    @Test("a refresh lease is taken before anything was saved: the keeper's folder is made for its lock")
    func leaseMakesTheFolder() throws {
        // Given: a keeper whose folder does not exist yet
        let keeper = FileTokenKeeper(url: folder.file("not/made/yet/app.signin"))

        // When
        let lease = try keeper.beginRefresh()
        lease.end()

        // Then
        #expect(FileManager.default.fileExists(atPath: folder.file("not/made/yet/app.signin.lock").path))
    }

    @Test("a lock interrupted by a signal is taken again; one the system refuses is a write error")
    func interruptedAndRefusedLocks() throws {
        // Given: a lock call interrupted once, and one that fails for want of locks
        let calls = Locked(0)
        var interrupted = FileTokenKeeper(url: folder.file("app.signin"))
        interrupted.lock = { descriptor in
            let call = calls.withLock { count in
                count += 1
                return count
            }
            guard call > 1 else {
                errno = EINTR
                return -1
            }
            return flock(descriptor, LOCK_EX)
        }
        var refused = FileTokenKeeper(url: folder.file("app.signin"))
        refused.lock = { _ in
            errno = ENOLCK
            return -1
        }

        // When
        let lease = try interrupted.beginRefresh()
        lease.end()
        let error = #expect(throws: FileTokenKeeper.WriteError.self) { try refused.beginRefresh() }

        // Then
        #expect(calls.withLock { $0 } == 2)
        #expect(error?.reason == String(cString: strerror(ENOLCK)), "\(String(describing: error))")
    }

    @Test("a lock file that cannot be opened is a write error naming the file and the system's reason")
    func unopenableLockSaysWhy() throws {
        // Given: a folder where the lock file should be
        let file = folder.file("app.signin")
        try FileManager.default.createDirectory(
            at: folder.file("app.signin.lock"), withIntermediateDirectories: true)

        // When
        let error = #expect(throws: FileTokenKeeper.WriteError.self) {
            try FileTokenKeeper(url: file).beginRefresh()
        }

        // Then
        #expect(error?.path == file.path + ".lock")
        #expect(error?.reason == String(cString: strerror(EISDIR)), "\(String(describing: error))")
    }

    @Test("erasing a keeper with nothing kept, or twice, is not an error")
    func eraseNothing() throws {
        // Given
        let keeper = FileTokenKeeper(url: folder.file("app.signin"))

        // When / Then
        try keeper.erase()
        try keeper.erase()
        #expect(!FileManager.default.fileExists(atPath: folder.file("app.signin").path))
    }
}
