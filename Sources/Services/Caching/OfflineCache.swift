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

    /// The validators of the answer the copy was saved from, which a refresh sends to be answered
    /// `304 Not Modified` when nothing changed; `nil` (the default) for a cache that keeps none,
    /// whose refreshes are always full.
    ///
    /// - Returns: A promise of the validators.
    func validators() -> Promise<CacheValidators?>

    /// Replaces what is cached with `value` and keeps `validators` with it, in one transaction;
    /// by default the validators are dropped (``save(_:at:)``).
    ///
    /// - Parameters:
    ///   - value: The fresh value.
    ///   - date: When it was fetched.
    ///   - validators: What the answer said of its version.
    /// - Returns: A promise fulfilled once the value is stored.
    func save(_ value: Value, at date: Date, validators: CacheValidators?) -> Promise<Void>

    /// The API answered `304 Not Modified`: the copy is current as of `date`. Moves its date on
    /// without writing the value, and gives it; `nil` when there is no copy.
    ///
    /// - Parameter date: When the API confirmed it.
    /// - Returns: A promise of the copy, dated `date`.
    func confirm(at date: Date) -> Promise<Cached<Value>?>
}

extension OfflineCache {
    /// None: refreshes are full.
    public func validators() -> Promise<CacheValidators?> {
        .value(nil)
    }

    /// ``save(_:at:)``, the validators dropped.
    public func save(_ value: Value, at date: Date, validators: CacheValidators?) -> Promise<Void> {
        save(value, at: date)
    }

    /// The copy saved again at `date`.
    public func confirm(at date: Date) -> Promise<Cached<Value>?> {
        let cache = self
        return load().then(on: .inline) { cached -> Promise<Cached<Value>?> in
            guard let cached else { return .value(nil) }
            return cache.save(cached.value, at: date).map(on: .inline) {
                Cached(value: cached.value, savedAt: date)
            }
        }
    }
}
