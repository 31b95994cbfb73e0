#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Where promise misuse is reported: unhandled rejections and promises dropped while pending.
///
/// The default handler writes one line to standard error. An app can send the reports to its own
/// logging, and a test can collect them; replacing the handler is the only process-wide setting
/// this library has, so a test that replaces it should restore ``standardError`` afterwards.
public enum PromiseDiagnostics {
    /// The handler, in a box: a closure kept directly in the generic lock box is re-abstracted
    /// (wrapped in a thunk) each time it goes in or out, and the thunks pile up read after read
    /// until calling the handler overflows the stack. A box is a plain reference, never wrapped.
    private static let current = Locked(DiagnosticsHandlerBox(standardError))

    /// The function every report goes to. It may be called on any thread, from a `deinit`.
    public static var handler: @Sendable (PromiseDiagnostic) -> Void {
        get { current.withLock { $0 }.handler }
        set {
            let box = DiagnosticsHandlerBox(newValue)
            current.withLock { $0 = box }
        }
    }

    /// The default handler: one line on standard error.
    public static let standardError: @Sendable (PromiseDiagnostic) -> Void = { diagnostic in
        let line = "Promises: \(diagnostic)\n"
        var bytes = Array(line.utf8)
        _ = bytes.withUnsafeMutableBytes { write(2, $0.baseAddress, $0.count) }
    }

    /// Sends `diagnostic` to the handler. Never inlined into another module: the handler lives in
    /// a private global of this one, reached only from here.
    @usableFromInline
    @inline(never)
    static func report(_ diagnostic: PromiseDiagnostic) {
        let box = current.withLock { $0 }
        box.handler(diagnostic)
    }
}

/// A diagnostics handler, kept by reference.
final class DiagnosticsHandlerBox: Sendable {
    let handler: @Sendable (PromiseDiagnostic) -> Void

    init(_ handler: @escaping @Sendable (PromiseDiagnostic) -> Void) {
        self.handler = handler
    }
}
