/// What an answer said about its version (RFC 9110 section 8.8): its `ETag` and `Last-Modified`,
/// kept with the copy they describe, and sent back with the next GET of the same address as
/// `If-None-Match` and `If-Modified-Since`, so that the API answers `304 Not Modified` with no
/// body when nothing changed.
public struct CacheValidators: Sendable, Equatable, Codable {
    /// The answer's entity tag, as the API wrote it (quotes and any `W/` included).
    public var etag: String?
    /// The answer's `Last-Modified` date, as the API wrote it.
    public var lastModified: String?
    /// The change feed's token the listing came with (`Sync-Token`), from which a
    /// `ChangeFeed` asks what changed since; not sent with a GET.
    public var syncToken: String?

    /// Makes validators.
    ///
    /// - Parameters:
    ///   - etag: The `ETag`, if the API sent one.
    ///   - lastModified: The `Last-Modified`, if the API sent one.
    ///   - syncToken: The `Sync-Token`, if the API sent one.
    public init(etag: String? = nil, lastModified: String? = nil, syncToken: String? = nil) {
        self.etag = etag
        self.lastModified = lastModified
        self.syncToken = syncToken
    }

    /// The header fields of a conditional GET: `If-None-Match` (which the API must prefer) and
    /// `If-Modified-Since`.
    public var conditionalHeaders: [String: String] {
        var headers: [String: String] = [:]
        if let etag { headers["If-None-Match"] = etag }
        if let lastModified { headers["If-Modified-Since"] = lastModified }
        return headers
    }
}
