public import Foundation
public import Promises

/// Where ``NetworkFallback`` keeps the last good answer: usually tables in the app's ``Database``.
public protocol OfflineCache<Value>: Sendable {
    /// What is cached.
    associatedtype Value: Sendable

    /// Replaces what is cached with `value`, in one transaction, so a failure keeps the old data.
    ///
    /// - Parameters:
    ///   - value: The fresh value.
    ///   - date: When it was fetched.
    /// - Returns: A promise fulfilled once the value is stored.
    func save(_ value: Value, at date: Date) -> Promise<Void>

    /// The cached value, or `nil` when nothing was ever saved.
    ///
    /// - Returns: A promise of the cached value.
    func load() -> Promise<Cached<Value>?>
}
