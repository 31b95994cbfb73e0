import Dispatch

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
    /// Where the handler is kept: a stored property of a concrete type, never re-abstracted on
    /// its way in or out (a closure kept in a generic box was wrapped in more thunks at every read,
    /// until calling it overflowed the stack).
    private static let hook = DiagnosticsHook(standardError)

    /// The function every report goes to. It may be called on any thread, from a `deinit`.
    public static var handler: @Sendable (PromiseDiagnostic) -> Void {
        get { hook.handler }
        set { hook.handler = newValue }
    }

    /// The default handler: one line on standard error.
    public static let standardError: @Sendable (PromiseDiagnostic) -> Void = { diagnostic in
        let line = "Promises: \(diagnostic)\n"
        var bytes = Array(line.utf8)
        _ = bytes.withUnsafeMutableBytes { write(2, $0.baseAddress, $0.count) }
    }

    /// Sends `diagnostic` to the handler.
    @usableFromInline
    @inline(never)
    static func report(_ diagnostic: PromiseDiagnostic) {
        hook.handler(diagnostic)
    }
}

/// The diagnostics handler, guarded by a serial queue: it changes rarely (an app at start, a test
/// around its body) and is read once per report, which is rare too.
private final class DiagnosticsHook: @unchecked Sendable {
    // `@unchecked Sendable` is sound: `stored` is only read or written inside `queue.sync`, and
    // `queue` is serial, so no two threads touch it at once.
    private let queue = DispatchQueue(label: "PromiseDiagnostics")
    private var stored: @Sendable (PromiseDiagnostic) -> Void

    init(_ handler: @escaping @Sendable (PromiseDiagnostic) -> Void) {
        stored = handler
    }

    var handler: @Sendable (PromiseDiagnostic) -> Void {
        get { queue.sync { stored } }
        set { queue.sync { stored = newValue } }
    }
}
