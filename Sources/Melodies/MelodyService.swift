public import Promises
public import Services

/// Gives the melodies to show: from the API when the network is there, from the device otherwise.
///
/// A test double implements ``getMelodies()`` only; a live service also says where the melodies
/// came from, through ``getMelodiesWithSource()``, so the screen can tell the user it is offline.
public protocol MelodyService {
    /// The melodies, or a `ServiceRequestError` saying why there are none.
    ///
    /// - Returns: A promise of the melodies.
    func getMelodies() -> Promise<[Melody]>

    /// The melodies and where they came from.
    ///
    /// - Returns: A promise of the melodies and their source.
    func getMelodiesWithSource() -> Promise<Fetched<[Melody]>>

    /// The melodies as `policy` reads them (see `CachePolicy`).
    ///
    /// - Parameters:
    ///   - policy: How the read uses the offline copy and the network.
    ///   - showingCopy: With `CachePolicy/cacheThenNetwork`, given the offline copy at once,
    ///     before the fresh melodies; on any thread.
    /// - Returns: A promise of the final melodies and their source.
    func getMelodies(
        policy: CachePolicy, showingCopy: @escaping @Sendable (Fetched<[Melody]>) -> Void
    ) -> Promise<Fetched<[Melody]>>
}

extension MelodyService {
    /// The melodies from ``getMelodies()``, reported as fresh from the network.
    ///
    /// - Returns: A promise of the melodies and their source.
    public func getMelodiesWithSource() -> Promise<Fetched<[Melody]>> {
        getMelodies().map(on: .inline) { Fetched(value: $0, source: .network) }
    }

    /// ``getMelodiesWithSource()``, whatever the policy: a service without an offline copy has
    /// only one way to read.
    ///
    /// - Parameters:
    ///   - policy: Not used.
    ///   - showingCopy: Not called.
    /// - Returns: A promise of the melodies and their source.
    public func getMelodies(
        policy: CachePolicy, showingCopy: @escaping @Sendable (Fetched<[Melody]>) -> Void
    ) -> Promise<Fetched<[Melody]>> {
        getMelodiesWithSource()
    }
}
