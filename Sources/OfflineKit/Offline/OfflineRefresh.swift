import Services

/// What a refresh (``OfflineCollection/refresh()``) brought down. The screen learns the result
/// from its observation; this says what it cost.
public enum OfflineRefresh: Sendable, Equatable {
    /// The API answered `304 Not Modified`: the copy was current; only its date was written.
    case unchanged
    /// The change feed's pages were applied: how many resources changed and were deleted.
    case applied(changes: Int, deletions: Int)
    /// The collection was listed whole: how many resources the API has.
    case listed(count: Int)
}
