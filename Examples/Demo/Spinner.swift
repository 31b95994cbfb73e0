import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Shows that loading is under way, on standard error and only when it is a terminal, so piped
/// output never carries control characters.
@MainActor
final class Spinner {
    private let terminal: Terminal
    private var animation: Task<Void, Never>?

    init(terminal: Terminal) {
        self.terminal = terminal
    }

    func show(_ isLoading: Bool, label: String) {
        animation?.cancel()
        animation = nil
        guard terminal.errorIsTerminal else { return }
        guard isLoading else {
            FileHandle.standardError.write(Data("\r\u{1B}[K".utf8))
            return
        }
        animation = Task { @MainActor in
            let frames = ["⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"]
            var frame = 0
            while !Task.isCancelled {
                FileHandle.standardError.write(Data("\r\(frames[frame % frames.count]) \(label)".utf8))
                frame += 1
                // Animation pace, not synchronisation: the task is cancelled when loading ends.
                try? await Task.sleep(nanoseconds: 80_000_000)
            }
        }
    }
}
