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
    private static let current = Locked<@Sendable (PromiseDiagnostic) -> Void>(standardError)

    /// The function every report goes to. It may be called on any thread, from a `deinit`.
    public static var handler: @Sendable (PromiseDiagnostic) -> Void {
        get { current.withLock { $0 } }
        set { current.withLock { $0 = newValue } }
    }

    /// The default handler: one line on standard error.
    public static let standardError: @Sendable (PromiseDiagnostic) -> Void = { diagnostic in
        let line = "Promises: \(diagnostic)\n"
        var bytes = Array(line.utf8)
        _ = bytes.withUnsafeMutableBytes { write(2, $0.baseAddress, $0.count) }
    }

    @usableFromInline
    static func report(_ diagnostic: PromiseDiagnostic) {
        handler(diagnostic)
    }
}
