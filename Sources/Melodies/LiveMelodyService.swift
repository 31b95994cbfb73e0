public import Promises
public import Services

/// The melody service an app ships: `GET <base>/melodies` through `APIClient`, cached in the
/// app's `Database`, with the `NetworkFallback` rule deciding which one answers.
public struct LiveMelodyService: MelodyService, Sendable {
    private let api: APIClient
    private let fallback: NetworkFallback<MelodyCache>
    /// The list saved on this device.
    let cache: MelodyCache

    /// Makes the service.
    ///
    /// - Parameters:
    ///   - api: The client for the melodies API.
    ///   - database: Where melodies are kept for offline use.
    ///   - reachability: Whether to try the network at all; by default always.
    public init(
        api: APIClient, database: Database, reachability: any ConnectivityMonitor = .assumeReachable
    ) {
        self.api = api
        cache = MelodyCache(database: database)
        fallback = NetworkFallback(cache: cache, reachability: reachability)
    }

    /// The melodies, from the API or, offline, from the cache.
    ///
    /// - Returns: A promise of the melodies, or rejected with a `ServiceRequestError`.
    public func getMelodies() -> Promise<[Melody]> {
        getMelodiesWithSource().map(on: .inline) { $0.value }
    }

    /// The melodies and whether they are fresh or cached, and since when.
    ///
    /// - Returns: A promise of the melodies and their source, or rejected with a
    ///   `ServiceRequestError`.
    public func getMelodiesWithSource() -> Promise<Fetched<[Melody]>> {
        getMelodies(policy: .networkFirst) { _ in }
    }

    /// The melodies as `policy` reads them: see `CachePolicy`.
    ///
    /// - Parameters:
    ///   - policy: How the read uses the offline copy and the network.
    ///   - showingCopy: With `CachePolicy/cacheThenNetwork`, given the offline copy at once.
    /// - Returns: A promise of the final melodies and their source, or rejected with a
    ///   `ServiceRequestError`.
    public func getMelodies(
        policy: CachePolicy, showingCopy: @escaping @Sendable (Fetched<[Melody]>) -> Void
    ) -> Promise<Fetched<[Melody]>> {
        let api = api
        return fallback.fetch(policy: policy, showingCopy: showingCopy) {
            api.get("melodies", as: [Melody].self)
        }
    }
}
