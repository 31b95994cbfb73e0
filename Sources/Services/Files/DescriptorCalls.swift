#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#else
    #error("DescriptorCalls is written for Linux and Apple platforms")
#endif

/// The calls on an open file that a disk can make fail partway (`read(2)`, `write(2)`,
/// `fsync(2)`), behind one seam: a test makes an interrupted call, a short write, a full disk or
/// a failed flush on every platform. Every file the package writes goes through it: kept files,
/// downloads, and the files ``FileReplacement`` replaces.
///
/// Each call answers as the system's does: a count, or `-1` with `errno` set.
struct DescriptorCalls: Sendable {
    let read: @Sendable (Int32, UnsafeMutableRawBufferPointer) -> Int
    let write: @Sendable (Int32, UnsafeRawBufferPointer) -> Int
    let fsync: @Sendable (Int32) -> Int32

    /// The system's calls, or a test's in place of some of them.
    init(
        read: @escaping @Sendable (Int32, UnsafeMutableRawBufferPointer) -> Int = {
            systemRead($0, $1.baseAddress, $1.count)
        },
        write: @escaping @Sendable (Int32, UnsafeRawBufferPointer) -> Int = {
            systemWrite($0, $1.baseAddress, $1.count)
        },
        fsync: @escaping @Sendable (Int32) -> Int32 = { systemFsync($0) }
    ) {
        self.read = read
        self.write = write
        self.fsync = fsync
    }

    /// The system's own calls.
    static let system = DescriptorCalls()

    /// Writes all of `bytes`, however many calls it takes: an interrupted call (`EINTR`) is made
    /// again, a short one goes on from where it stopped.
    ///
    /// - Returns: Whether every byte was written; `false` when a call failed (`errno` says why)
    ///   or wrote nothing.
    func writeAll(_ bytes: UnsafeRawBufferPointer, to descriptor: Int32) -> Bool {
        var written = 0
        while written < bytes.count {
            let wrote = write(descriptor, UnsafeRawBufferPointer(rebasing: bytes[written...]))
            if wrote == -1 && errno == EINTR { continue }
            guard wrote > 0 else { return false }
            written += wrote
        }
        return true
    }

    /// Reads what comes next into `buffer`, making an interrupted call again.
    ///
    /// - Returns: The bytes read, `0` at the end, or `-1` when the read failed (`errno` says why).
    func readSome(_ descriptor: Int32, into buffer: UnsafeMutableRawBufferPointer) -> Int {
        while true {
            let count = read(descriptor, buffer)
            if count == -1 && errno == EINTR { continue }
            return count
        }
    }
}

// The system's functions under names the calls' closures do not shadow.
private func systemRead(_ descriptor: Int32, _ buffer: UnsafeMutableRawPointer?, _ count: Int) -> Int {
    #if canImport(Glibc)
        Glibc.read(descriptor, buffer, count)
    #else
        Darwin.read(descriptor, buffer, count)
    #endif
}

private func systemWrite(_ descriptor: Int32, _ bytes: UnsafeRawPointer?, _ count: Int) -> Int {
    #if canImport(Glibc)
        Glibc.write(descriptor, bytes, count)
    #else
        Darwin.write(descriptor, bytes, count)
    #endif
}

private func systemFsync(_ descriptor: Int32) -> Int32 {
    #if canImport(Glibc)
        Glibc.fsync(descriptor)
    #else
        Darwin.fsync(descriptor)
    #endif
}
