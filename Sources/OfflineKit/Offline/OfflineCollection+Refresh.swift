import Foundation
public import Promises
public import Services

/// Bringing other devices' changes down: the API's change feed where it has one, else a
/// conditional listing.
extension OfflineCollection {
    /// The same collection, refreshed through `feed` (``refresh()``).
    ///
    /// - Parameter feed: The API's change feed.
    /// - Returns: The collection with the feed.
    public func following(_ feed: some ChangeFeed<Resource>) -> OfflineCollection {
        var following = self
        following.feed = { feed.changes(since: $0) }
        return following
    }

    /// The same collection, refreshed through the API's `Sync-Token` feed (``SyncTokenFeed``).
    ///
    /// - Returns: The collection with the feed.
    public func followingChanges() -> OfflineCollection {
        following(SyncTokenFeed<Resource>(client: client, collection: collection))
    }

    /// Brings the API's changes into the copy: with a feed (``following(_:)``) and the token of
    /// the last listing, what changed since, applied in one transaction; otherwise, or when the API
    /// no longer knows the token (`410`), or its feed cannot be used (it does not decode, names a
    /// resource twice in a page, or repeats its token), a conditional listing: a `304` writes the
    /// copy's date alone, and nothing is read back. Resources with changes waiting here keep
    /// showing this device's value; their changes are checked against the API's version when sent
    /// (a merge or a conflict, never an overwrite). A refresh sends nothing; a screen that
    /// observes the collection is shown the result.
    ///
    /// - Returns: A promise of what came down; rejected when the API cannot be reached or fails
    ///   (the copy is unchanged).
    public func refresh() -> Promise<OfflineRefresh> {
        let (client, collection) = (client, collection)
        return refresh { client.get(collection, as: [Resource].self, ifChangedSince: $0) }
    }

    /// ``refresh()``, listing with `fetch` when it lists: for a feature whose API lists its own way.
    ///
    /// - Parameter fetch: Lists the resources, conditionally when given validators.
    /// - Returns: A promise of what came down.
    public func refresh(
        fetchingConditionally fetch:
            @escaping @Sendable (CacheValidators?) -> Promise<ConditionalGet<[Resource]>>
    ) -> Promise<OfflineRefresh> {
        let local = self
        guard reachability.isReachable else { return Promise(error: ServiceRequestError.noNetwork) }
        let storage = storage
        return storage.tables.read { try $0.cacheValidators(storage.copyStamp) }
            .then(on: .inline) { validators -> Promise<OfflineRefresh> in
                guard let feed = local.feed, let token = validators?.syncToken else {
                    return local.listWhole(validators, fetch)
                }
                return local.follow(from: token, feed, applied: (0, 0), pagesLeft: Self.longestFeed)
                    .recover(on: .inline, policy: .allErrors) { error -> Promise<OfflineRefresh> in
                        guard
                            FailureClass(error).isGone || error is FeedNotUsable
                                || error is APIError
                                    && FailureClass(error).kind == .other
                        else { throw error }
                        // Listed whole: without validators, so that a `304` cannot keep the old token.
                        return local.listWhole(nil, fetch)
                    }
            }
            .recover(on: .inline, policy: .allErrors) { throw ServiceRequestError($0) }
    }

    /// A conditional listing: the copy's date alone on `304`, else the copy replaced.
    private func listWhole(
        _ validators: CacheValidators?,
        _ fetch: @escaping @Sendable (CacheValidators?) -> Promise<ConditionalGet<[Resource]>>
    ) -> Promise<OfflineRefresh> {
        let (storage, now) = (storage, now)
        return fetch(validators).then(on: .inline) { answer -> Promise<OfflineRefresh> in
            storage.tables.write { connection in
                switch answer {
                case .notModified:
                    guard validators != nil, try storage.confirmCopy(at: now(), in: connection) else {
                        throw APIError.redirected(status: 304, location: "")
                    }
                    return .unchanged
                case .changed(let resources, let validators):
                    try storage.saveCopy(resources, at: now(), validators: validators, in: connection)
                    return .listed(count: resources.count)
                }
            }
        }
    }

    /// A feed that cannot be used: the collection lists whole instead.
    struct FeedNotUsable: Error {
        let reason: String
    }

    /// The most pages one refresh follows: a feed that goes on longer stops the refresh with
    /// ``FeedTooLong``; what it applied stays, and the next refresh goes on from there.
    static var longestFeed: Int { 1_000 }

    /// A change feed that did not end within ``longestFeed`` pages: the refresh stops, as any
    /// failure does, keeping the pages applied so far and their token.
    struct FeedTooLong: Error, ServiceRequestErrorConvertible {
        /// The pages applied before it stopped.
        let pages: Int

        var serviceRequestError: ServiceRequestError {
            .decodingFailed(type: "change feed", reason: "it did not end after \(pages) pages")
        }
    }

    /// How many bytes of pages (their resources as JSON) one transaction applies at most, and so
    /// how many a refresh holds at once: one page more than this at worst.
    static var pageBudget: Int { 4 << 20 }

    /// Every page after `token`, in order, applied as they arrive: gathered up to ``pageBudget``
    /// bytes, then applied in one transaction with the token that follows them. Whatever the
    /// feed's length, a refresh holds that much at once, a screen observing the collection gets a
    /// snapshot per batch rather than per page, and a refresh that stops keeps what it applied.
    private func follow(
        from token: String, _ feed: @escaping @Sendable (String) -> Promise<ChangeFeedPage<Resource>>,
        gathered: [ChangeFeedPage<Resource>] = [], bytes: Int = 0,
        applied: (changes: Int, deletions: Int), pagesLeft: Int
    ) -> Promise<OfflineRefresh> {
        let local = self
        return feed(token).then(on: .inline) { page -> Promise<OfflineRefresh> in
            let ids = page.changes.map { IdentifierKey($0.id ?? "") } + page.deleted.map(IdentifierKey.init)
            guard Set(ids).count == ids.count else {
                throw FeedNotUsable(reason: "a page names a resource twice")
            }
            guard !page.more || page.next != token else {
                throw FeedNotUsable(reason: "the feed does not move on")
            }
            let batch = gathered + [page]
            let size = bytes + Self.size(of: page)
            let total = (applied.changes + page.changes.count, applied.deletions + page.deleted.count)
            guard page.more else {
                return local.apply(batch).map(on: .inline) { .applied(changes: total.0, deletions: total.1) }
            }
            let next: @Sendable ([ChangeFeedPage<Resource>], Int) throws -> Promise<OfflineRefresh> = {
                gathered, bytes in
                guard pagesLeft > 1 else { throw FeedTooLong(pages: Self.longestFeed) }
                return local.follow(
                    from: page.next, feed, gathered: gathered, bytes: bytes, applied: total,
                    pagesLeft: pagesLeft - 1)
            }
            guard size >= Self.pageBudget || pagesLeft <= 1 else { return try next(batch, size) }
            return local.apply(batch).then(on: .inline) { try next([], 0) }
        }
    }

    /// About how many bytes a page holds: its resources as JSON, and its deleted ids.
    private static func size(of page: ChangeFeedPage<Resource>) -> Int {
        let changes = (try? JSONEncoder().encode(page.changes).count) ?? 0
        return changes + page.deleted.reduce(0) { $0 + $1.utf8.count }
    }

    /// Pages applied to the copy in one transaction, with the token that follows the last kept.
    private func apply(_ pages: [ChangeFeedPage<Resource>]) -> Promise<Void> {
        let (storage, now) = (storage, now)
        return storage.tables.write { connection in
            let waiting = Set(
                try storage.idsChangedHere(in: connection).map(IdentifierKey.init)
                    + OutboxTable.entries(storage.outbox.feature, nil, connection).map {
                        IdentifierKey($0.localID)
                    })
            for page in pages {
                for resource in page.changes where !waiting.contains(IdentifierKey(resource.id ?? "")) {
                    try storage.put(resource, from: .api, in: connection)
                }
                for id in page.deleted where !waiting.contains(IdentifierKey(id)) {
                    try storage.remove(id: id, from: .api, in: connection)
                }
            }
            // The copy is no longer the last listing's answer: its ETag goes, the token stays.
            try connection.setCacheStamp(
                storage.copyStamp, to: now(), validators: CacheValidators(syncToken: pages.last?.next),
                counting: .updated)
        }
    }
}
