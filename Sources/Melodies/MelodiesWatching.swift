import Promises
public import Services

/// A melody service whose saved list can be watched: a screen is told again whenever the list
/// saved on this device changes (a refresh by this app or by another process on the same file).
public protocol MelodiesWatching: Sendable {
    /// Observes the saved list.
    ///
    /// - Parameter changed: Gets the list at once and after each change, with where it came
    ///   from (`DataSource/stored(savedAt:)`); nothing while none was saved or it cannot be read.
    /// - Returns: The observation; it ends when cancelled or released.
    func observeMelodies(_ changed: @escaping @Sendable (Fetched<[Melody]>) -> Void) -> ObservationHandle
}

extension LiveMelodyService: MelodiesWatching {
    /// Observes the list saved on this device.
    ///
    /// - Parameter changed: Gets the list at once and after each change.
    /// - Returns: The observation; it ends when cancelled or released.
    public func observeMelodies(_ changed: @escaping @Sendable (Fetched<[Melody]>) -> Void)
        -> ObservationHandle
    {
        cache.observe(on: .inline) { result in
            guard case .success(let cached?) = result else { return }
            changed(Fetched(value: cached.value, source: .stored(savedAt: cached.savedAt)))
        }
    }
}
