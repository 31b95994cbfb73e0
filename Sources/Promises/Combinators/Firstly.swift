// swift-format-ignore: AmbiguousTrailingClosureOverload
// (The body's type tells the two `firstly` apart: a guarantee stays a guarantee, as in PromiseKit.)
/// Starts a chain, so that every step reads alike and an error thrown while starting it rejects the
/// chain instead of escaping.
///
/// - Parameter body: Starts the first step; it runs at once, on the caller's thread.
/// - Returns: `body`'s promise, or a promise rejected with what it threw.
@inlinable
public func firstly<Value>(_ body: () throws -> Promise<Value>) -> Promise<Value> {
    do {
        return try body()
    } catch {
        return Promise(error: error)
    }
}

/// Starts a chain with a guarantee, as PromiseKit's `firstly { guarantee }` reads.
///
/// - Parameter body: Makes the guarantee.
/// - Returns: The guarantee `body` made.
@inlinable
public func firstly<Value>(_ body: () -> Guarantee<Value>) -> Guarantee<Value> {
    body()
}
