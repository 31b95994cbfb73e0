extension Promise {
    /// Ends a chain whose errors nobody needs to show, and logs them: each error except a
    /// cancellation is reported once as ``PromiseDiagnostic/cauterized(_:)`` through
    /// ``PromiseDiagnostics/handler``, and counts as handled.
    ///
    /// Use it where PromiseKit code calls `cauterize()`: fire-and-forget work (a prefetch, an
    /// analytics call) whose failure changes nothing on screen.
    ///
    /// - Returns: A promise that settles like this one once the error was reported.
    @discardableResult
    @inlinable
    public func cauterize() -> Promise<Value> {
        `catch`(on: .inline) { PromiseDiagnostics.report(.cauterized($0)) }
    }
}
