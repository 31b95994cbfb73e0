import Foundation
import PromiseMVPTesting
import Testing

#if os(macOS) || os(Linux)
    #if canImport(Glibc)
        import Glibc
    #elseif canImport(Darwin)
        import Darwin
    #endif

    /// The tests' one way to start a program (`ChildProcess.swift`).
    @Suite("ChildProcess")
    struct ChildProcessTests {
        static let shell = URL(fileURLWithPath: "/bin/sh")

        /// Runs `script` in `sh`, gives its standard output and the process once it exited.
        static func run(_ script: String) async throws -> (String, ChildProcess) {
            let output = Pipe()
            let child = try ChildProcess(shell, ["-c", script], output: output)
            let text = await BlockingWork.run {
                let data = output.fileHandleForReading.readDataToEndOfFile()
                child.waitUntilExit()
                return String(decoding: data, as: UTF8.self)
            }
            return (text, child)
        }

        @Test("a child's output is read to its end, and its exit code is kept")
        func outputAndExitCode() async throws {
            // When
            let (text, child) = try await Self.run("echo hello; exit 3")

            // Then
            #expect(text == "hello\n")
            #expect(child.terminationStatus == 3 && !child.terminatedBySignal && !child.isRunning)
        }

        @Test("a child killed by a signal says so")
        func killedBySignal() async throws {
            // Given
            let child = try ChildProcess(Self.shell, ["-c", "sleep 30"])
            #expect(child.isRunning && !child.terminatedBySignal && child.terminationStatus == -1)

            // When
            kill(child.processIdentifier, SIGKILL)
            await BlockingWork.run { child.waitUntilExit() }

            // Then
            #expect(child.terminatedBySignal && child.terminationStatus == SIGKILL)
        }

        @Test("a child's standard error is read to its end, apart from its output")
        func errorReadToItsEnd() async throws {
            // Given
            let (output, error) = (Pipe(), Pipe())
            let child = try ChildProcess(
                Self.shell, ["-c", "echo out; echo err >&2"], output: output, error: error)

            // When: read to the end, which comes only once no write end is left open
            let (said, complained) = await BlockingWork.run {
                let said = output.fileHandleForReading.readDataToEndOfFile()
                let complained = error.fileHandleForReading.readDataToEndOfFile()
                child.waitUntilExit()
                return (String(decoding: said, as: UTF8.self), String(decoding: complained, as: UTF8.self))
            }

            // Then
            #expect(said == "out\n" && complained == "err\n")
        }

        @Test("terminate asks the child to stop: it ends by SIGTERM")
        func terminateSendsSIGTERM() async throws {
            // Given
            let child = try ChildProcess(Self.shell, ["-c", "sleep 30"])

            // When
            child.terminate()
            await BlockingWork.run { child.waitUntilExit() }

            // Then
            #expect(child.terminatedBySignal && child.terminationStatus == SIGTERM)
        }

        @Test("a program that does not exist is not started: the error says so")
        func missingProgramThrows() {
            // When / Then
            #expect(throws: POSIXError.self) {
                _ = try ChildProcess(URL(fileURLWithPath: "/nonexistent/program"), [])
            }
        }

        @Test("a child that exited is not running, at the first call that asks")
        func exitedChildIsNotRunning() async throws {
            // Given: a child that exits at once
            let child = try ChildProcess(Self.shell, ["-c", "exit 0"])

            // When: it has exited (waited for without reaping it: WNOWAIT leaves that to the child)
            let waited = await BlockingWork.run { () -> Int32 in
                var info = siginfo_t()
                return waitid(P_PID, id_t(child.processIdentifier), &info, WEXITED | WNOWAIT)
            }

            // Then
            #expect(waited == 0)
            #expect(!child.isRunning)
            #expect(child.terminationStatus == 0 && !child.terminatedBySignal)
        }

        @Test("a stream the caller gives no pipe for is /dev/null, not the parent's")
        func streamsWithoutAPipeAreDevNull() async throws {
            // When: the child compares its input and its error stream with /dev/null (same file)
            let (text, _) = try await Self.run(
                "[ /dev/stdin -ef /dev/null ] && echo input; [ /dev/stderr -ef /dev/null ] && echo error")

            // Then
            #expect(text == "input\nerror\n")
        }

        #if os(Linux)
            @Test("a child holds no descriptor but its three streams, whatever the parent has open")
            func onlyTheThreeStreamsAreInherited() async throws {
                // Given: a pipe of the parent's, open while the child starts
                let unrelated = Pipe()
                defer { try? unrelated.fileHandleForWriting.close() }

                // When: the child lists its descriptors (`ls` opens one more for the listing)
                let (text, _) = try await Self.run("ls /proc/$$/fd")

                // Then
                let descriptors = text.split(separator: "\n").compactMap { Int($0) }.sorted()
                #expect(descriptors.prefix(3) == [0, 1, 2])
                #expect(!descriptors.contains(Int(unrelated.fileHandleForWriting.fileDescriptor)))
            }

            @Test(
                "a child that exits without reading its input leaves no reader: the parent's copy is closed")
            func inputHasNoReaderOnceTheChildExited() async throws {
                // Given: a child given an input pipe, which exits without reading it
                let input = Pipe()
                defer { try? input.fileHandleForWriting.close() }
                let child = try ChildProcess(Self.shell, ["-c", "exit 0"], input: input)

                // When: it has exited, and the parent asks whether its input can still be written
                await BlockingWork.run { child.waitUntilExit() }
                var writable = pollfd(
                    fd: input.fileHandleForWriting.fileDescriptor, events: Int16(POLLOUT), revents: 0)
                let ready = poll(&writable, 1, 0)

                // Then: no reader is left (Linux's poll(2) sets POLLERR on a pipe's write end then), so
                // a write fails instead of filling the pipe and blocking
                #expect(ready == 1)
                #expect(writable.revents & Int16(POLLERR) != 0)
            }
        #endif
    }
#endif
