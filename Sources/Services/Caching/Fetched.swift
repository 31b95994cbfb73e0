/// A service's answer and where it came from.
public struct Fetched<Value: Sendable>: Sendable {
    /// The data.
    public let value: Value
    /// Where it came from.
    public let source: DataSource
    /// Set when fresh data could not be written to the cache: the data is still good, but the next
    /// offline start will not have it. Worth a log line, not an error screen.
    public let cacheWriteError: ServiceRequestError?

    /// Makes an answer.
    ///
    /// - Parameters:
    ///   - value: The data.
    ///   - source: Where it came from.
    ///   - cacheWriteError: Why fresh data could not be cached, if it could not.
    public init(value: Value, source: DataSource, cacheWriteError: ServiceRequestError? = nil) {
        self.value = value
        self.source = source
        self.cacheWriteError = cacheWriteError
    }

    /// For fresh data that could not be saved on the device, the sentence that says so and why;
    /// `nil` otherwise. A notice never says "saved for offline use" when nothing was saved.
    public var unsavedNotice: String? {
        guard source == .network, let failure = cacheWriteError else { return nil }
        return "Fresh, but they could not be saved for offline use: \(failure.cause)"
    }

    /// The same answer with its value transformed.
    ///
    /// - Parameter transform: Makes the new value.
    /// - Returns: An answer from the same source.
    public func map<NewValue>(_ transform: (Value) throws -> NewValue) rethrows -> Fetched<NewValue> {
        Fetched<NewValue>(value: try transform(value), source: source, cacheWriteError: cacheWriteError)
    }
}
