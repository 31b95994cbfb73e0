import PromiseMVPTesting

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The calls of a test's disk, counted, the first one interrupted (`EINTR`) as a signal would:
/// for a `DescriptorCalls` closure, `first.interrupt() ?? write(...)`.
final class InterruptedFirstCall: Sendable {
    private let count = Locked(0)

    /// How many calls were made.
    var calls: Int { count.withLock { $0 } }

    /// Counts a call: `-1` with `errno` set to `EINTR` for the first, `nil` (make the call) after.
    func interrupt() -> Int? {
        let first = count.withLock { count in
            defer { count += 1 }
            return count == 0
        }
        guard first else { return nil }
        errno = EINTR
        return -1
    }
}
