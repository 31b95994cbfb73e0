public import Foundation
import Promises

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

// Starting processes is for macOS and Linux only: iOS, tvOS, watchOS and visionOS have no
// `posix_spawn` an app may call.
#if os(macOS) || os(Linux)

    /// A child process for a test: the tests' one way to start a program, with `posix_spawn`.
    ///
    /// Not Foundation's `Process`: on Linux its `run()` reads `/proc/self/fd` with an over-read of
    /// each directory entry (a 256-byte copy of `d_name` from records that are shorter), which
    /// crashes the test process now and then (2 of 59 full runs of this suite, and 1 of 2
    /// fresh-clone CI runs in one session; fixed upstream in swift-corelibs-foundation pull request
    /// 5472, not in the 6.3.1 toolchain this was seen on).
    /// This starts the program without that read: the child's standard streams are set up by the
    /// spawn, and every other descriptor is closed in the child (`closefrom` on Linux,
    /// `POSIX_SPAWN_CLOEXEC_DEFAULT` on macOS), so a pipe of another test's child never stays open
    /// in this one.
    ///
    /// ```swift
    /// let output = Pipe()
    /// let child = try ChildProcess(executable, ["--help"], output: output)
    /// let text = output.fileHandleForReading.readDataToEndOfFile()
    /// child.waitUntilExit()
    /// ```
    public final class ChildProcess: Sendable {
        /// The child's raw wait status once it was reaped. Every `waitpid` that may reap the child
        /// runs with this lock held (`reap`), so whoever finds no child finds the status kept.
        private let status = Locked<Int32?>(nil)

        /// The child's process identifier.
        public let processIdentifier: pid_t

        /// Starts `executable` with `arguments`.
        ///
        /// - Parameters:
        ///   - executable: The program.
        ///   - arguments: Its arguments, without the program's own name.
        ///   - environment: Its environment; this process's by default.
        ///   - input: A pipe whose read end becomes the child's standard input; `/dev/null` by
        ///     default. The parent's copy of that end is closed once the child started.
        ///   - output: A pipe whose write end becomes the child's standard output; `/dev/null` by
        ///     default. The parent's copy of that end is closed, so the parent reads to the end.
        ///   - error: The same for standard error.
        /// - Throws: `POSIXError` when the program cannot be started.
        public init(
            _ executable: URL, _ arguments: [String], environment: [String: String]? = nil,
            input: Pipe? = nil, output: Pipe? = nil, error: Pipe? = nil
        ) throws {
            #if canImport(Darwin)
                var actions: posix_spawn_file_actions_t? = nil
                var attributes: posix_spawnattr_t? = nil
            #else
                var actions = posix_spawn_file_actions_t()
                var attributes = posix_spawnattr_t()
            #endif
            posix_spawn_file_actions_init(&actions)
            posix_spawnattr_init(&attributes)
            defer {
                posix_spawn_file_actions_destroy(&actions)
                posix_spawnattr_destroy(&attributes)
            }
            let streams: [(Int32, Int32?)] = [
                (0, input?.fileHandleForReading.fileDescriptor),
                (1, output?.fileHandleForWriting.fileDescriptor),
                (2, error?.fileHandleForWriting.fileDescriptor),
            ]
            for (target, source) in streams {
                if let source {
                    posix_spawn_file_actions_adddup2(&actions, source, target)
                } else {
                    posix_spawn_file_actions_addopen(&actions, target, "/dev/null", O_RDWR, 0)
                }
            }
            Self.closeOtherDescriptors(&actions, &attributes)

            let argv = ([executable.path] + arguments).map { strdup($0) } + [nil]
            let variables = (environment ?? ProcessInfo.processInfo.environment).map {
                "\($0.key)=\($0.value)"
            }
            let envp = variables.map { strdup($0) } + [nil]
            defer {
                for pointer in argv + envp { free(pointer) }
            }
            var pid: pid_t = 0
            let spawned = posix_spawn(&pid, executable.path, &actions, &attributes, argv, envp)
            guard spawned == 0 else {
                throw POSIXError(POSIXErrorCode(rawValue: spawned) ?? .EINVAL)
            }
            processIdentifier = pid
            // The child holds its own copies now; the parent's would keep the pipes open.
            try? input?.fileHandleForReading.close()
            try? output?.fileHandleForWriting.close()
            try? error?.fileHandleForWriting.close()
        }

        #if canImport(Darwin)
            /// Closes, in the child, every descriptor the spawn did not set up (macOS).
            private static func closeOtherDescriptors(
                _ actions: inout posix_spawn_file_actions_t?, _ attributes: inout posix_spawnattr_t?
            ) {
                posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_CLOEXEC_DEFAULT))
            }
        #else
            /// `posix_spawn_file_actions_addclosefrom_np` (glibc 2.34 and later), looked up at run
            /// time: the C library declares it only for `_GNU_SOURCE`, which Swift's `Glibc` does not
            /// define. `nil` on an older C library, where the child then inherits open descriptors.
            private typealias AddCloseFrom =
                @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32
            private static let addCloseFrom: AddCloseFrom? = {
                // RTLD_DEFAULT is the null handle in glibc.
                guard let symbol = dlsym(nil, "posix_spawn_file_actions_addclosefrom_np") else { return nil }
                return unsafeBitCast(symbol, to: AddCloseFrom.self)
            }()

            /// Closes, in the child, every descriptor from 3 on (Linux).
            private static func closeOtherDescriptors(
                _ actions: inout posix_spawn_file_actions_t, _ attributes: inout posix_spawnattr_t
            ) {
                _ = addCloseFrom?(&actions, 3)
            }
        #endif

        /// Waits until the child exits (blocking: call it off the cooperative pool). Any number of
        /// threads may wait at once: each returns with the status kept.
        public func waitUntilExit() {
            if status.withLock({ $0 }) != nil { return }
            // Waits without reaping (`WNOWAIT`): the child stays until it is reaped below, with the
            // lock held. A wait that reaped it here could not store the status before another
            // waiter, finding no child (ECHILD), returned without one.
            var exited = siginfo_t()
            while waitid(P_PID, id_t(processIdentifier), &exited, WEXITED | WNOWAIT) == -1 && errno == EINTR {
            }
            status.withLock { reap(&$0) }
        }

        /// Reaps the child if it exited and keeps its status; nothing once the status is kept.
        /// Called with the lock held, as every reap is.
        private func reap(_ status: inout Int32?) {
            guard status == nil else { return }
            var raw: Int32 = 0
            guard waitpid(processIdentifier, &raw, WNOHANG) == processIdentifier else { return }
            status = raw
        }

        /// Whether the child has not exited yet.
        public var isRunning: Bool {
            status.withLock { status in
                reap(&status)
                return status == nil
            }
        }

        /// The exit code, or the number of the signal that ended it (``terminatedBySignal``);
        /// -1 before it exited.
        public var terminationStatus: Int32 {
            guard let raw = status.withLock({ $0 }) else { return -1 }
            return raw & 0x7f == 0 ? (raw >> 8) & 0xff : raw & 0x7f
        }

        /// Whether a signal ended the child (`kill -9`, say).
        public var terminatedBySignal: Bool {
            guard let raw = status.withLock({ $0 }) else { return false }
            return raw & 0x7f != 0 && raw & 0x7f != 0x7f
        }

        /// Asks the child to stop (`SIGTERM`).
        public func terminate() {
            kill(processIdentifier, SIGTERM)
        }
    }
#endif
