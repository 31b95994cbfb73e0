public import Foundation

/// What an ``OfflineCache`` holds: the last value saved and when.
public struct Cached<Value: Sendable>: Sendable {
    /// The value.
    public let value: Value
    /// When it was saved.
    public let savedAt: Date

    /// Makes a cached value.
    ///
    /// - Parameters:
    ///   - value: The value.
    ///   - savedAt: When it was saved.
    public init(value: Value, savedAt: Date) {
        self.value = value
        self.savedAt = savedAt
    }
}

extension Cached: Equatable where Value: Equatable {}
