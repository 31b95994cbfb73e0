import Promises

/// Values recorded from any thread, read back by the test: the bodies an `accepting` closure
/// saw, the requests a responder answered. Its lock is the package's own, so that the package
/// needs no lock type of its own in a user's tests.
///
/// ```swift
/// let bodies = TestLog<Data>()
/// let api = TestResourceAPI(collection: "tasks") { body in
///     bodies.append(body)
///     return body
/// }
/// ```
public final class TestLog<Element: Sendable>: Sendable {
    private let recorded = Locked<[Element]>([])

    /// An empty log.
    public init() {}

    /// Records `element` after those recorded before.
    ///
    /// - Parameter element: The value.
    public func append(_ element: Element) {
        recorded.withLock { $0.append(element) }
    }

    /// What was recorded, in order.
    public var elements: [Element] { recorded.withLock { $0 } }
}
