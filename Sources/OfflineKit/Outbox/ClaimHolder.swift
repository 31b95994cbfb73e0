import Foundation
import Services

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#else
    #error("ClaimHolder knows whether a process runs on Apple platforms and Linux")
#endif

/// Which process holds an ``OutboxClaim``, and whether it still runs: the platform seam for
/// "is that process alive". A claim left by a process that was killed (`kill -9`, the system
/// ending an extension) is given up at once by the next sync on the same machine, instead of
/// holding the changes back until its lease lapses.
///
/// Linux and Apple platforms: `kill(pid, 0)` sends nothing and answers `ESRCH` when no such
/// process exists; `EPERM` (a process of another user or sandbox) counts as running. A process
/// number reused by another program reads as running: the claim then lasts its lease, which is
/// the safe side.
struct ClaimHolder: Equatable, Sendable {
    /// The process number.
    let pid: Int64
    /// The machine it runs on (its host name): a process number means nothing on another one, as
    /// for a file on a shared disk.
    let host: String

    /// This process, read once. The machine's name comes from `gethostname(2)`, the same call on
    /// every platform and never a lookup: Foundation's host name of `ProcessInfo` is `gethostname`
    /// on Linux but a reverse DNS lookup on Apple platforms (`NSHost`), which can block for tens
    /// of seconds, and it was read inside the write transaction that takes the claim.
    static let current = ClaimHolder(pid: Int64(getpid()), host: machineName())

    /// The name `gethostname(2)` gives, or "" when it fails (a claim then counts as another
    /// machine's: it lasts its lease, the safe side).
    static func machineName() -> String {
        var name = [CChar](repeating: 0, count: 256)
        guard gethostname(&name, name.count - 1) == 0 else { return "" }
        return String(decoding: name.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// Whether this holder is known to have ended: on this machine, and no such process runs.
    var hasEnded: Bool {
        guard host == Self.current.host, let pid = pid_t(exactly: pid), pid > 0 else { return false }
        return kill(pid, 0) != 0 && errno == ESRCH
    }
}
