public import Services

/// Why a collection's stored data could not be brought to the model version it declares
/// (``OfflineCollection/model(version:steps:)``).
public enum OfflineModelError: Error, Equatable, Sendable, CustomStringConvertible,
    ServiceRequestErrorConvertible
{
    /// The file holds the collection at a newer version than this app reads (an older app after a
    /// downgrade, or two apps sharing the file): nothing is read, written or sent, so nothing it
    /// cannot understand is written over or sent in a shape it does not know.
    case newerData(collection: String, stored: Int, reads: Int)
    /// The collection declares a version its steps do not match: exactly `version - 1` steps are
    /// needed, one a version (several changes in one version are one
    /// ``OfflineModelStep/combining(_:)`` step). Too many would be dropped silently, too few
    /// leave a version unreached: nothing is read, written or sent.
    case stepsMissing(collection: String, version: Int, steps: Int)
    /// A step could not read one resource or change; that one is left damaged with this reason.
    case unreadable(String)

    /// What happened, for the user and the log.
    public var description: String {
        switch self {
        case .newerData(let collection, let stored, let reads):
            "This device's \(collection) were saved by a newer version of the app (model \(stored); "
                + "this one reads up to \(reads)): update the app to see and send them."
        case .stepsMissing(let collection, let version, let steps):
            version < 1
                ? "The \(collection) model is declared at version \(version): versions start at 1."
                : "The \(collection) model is at version \(version) but has \(steps) steps: it needs exactly "
                    + "\(version - 1), one a version (several changes of one version are one `.combining` step)."
        case .unreadable(let reason):
            reason
        }
    }

    /// A storage failure, whose reason is ``description``.
    public var serviceRequestError: ServiceRequestError { .storageFailed(reason: description) }
}
