import Services

/// Where a row of an ``OfflineStorage`` came from, which decides what a fresh listing does to it.
public enum OfflineOrigin: String, Sendable, Equatable {
    /// The API's copy: replaced by each fresh listing.
    case api
    /// Changed on this device (created, updated or deleted) and not confirmed by the API yet:
    /// kept, as it is here, through fresh listings.
    case device
}
