import Foundation
import Promises
import Services

/// A write made online that the API answered `412 Precondition Failed`: kept here as a conflict,
/// as a sync would have held it, so the screen shows and settles it the same way online and
/// offline.
extension OfflineCollection {
    /// Holds the change just recorded for resource `id` as a conflict with `theirs`, when there is
    /// one (`conflict` not `nil`).
    static func hold(
        _ id: String, theirs conflict: Data??, _ storage: AnyOfflineStorage<Resource>,
        _ connection: Connection
    ) throws {
        guard case .some(let theirs) = conflict,
            let entry = try storage.outbox.entries(for: id, in: connection).last
        else { return }
        try OutboxTable.hold(entry, theirs: theirs, deletedOnServer: false, connection)
    }

    /// Fails with the conflict now held for resource `id` (`ServiceRequestError/httpStatus(_:)`
    /// 412 if it cannot be read).
    func failingWithConflict<Value>(_ id: String) -> Promise<Value> {
        conflict(id: id).map(on: .inline) { conflict -> Value in
            if let conflict { throw conflict }
            throw ServiceRequestError.httpStatus(412)
        }
    }

    /// `error` as a write reports it: a conflict as it is, anything else as a
    /// `ServiceRequestError`.
    static func reported(_ error: any Error) -> any Error {
        error is OfflineConflict<Resource> ? error : ServiceRequestError(error)
    }
}
