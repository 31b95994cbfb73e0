public import Foundation
public import OfflineKit

/// A task to do by a date, kept offline; `updatedAt` says which of two edits came last.
public struct PlannedTask: OfflineResource, Equatable {
    /// The API's identifier, or a local one until the API has the task.
    public var id: String?
    /// The API's version of the task.
    public var version: String?
    /// What to do.
    public var title: String
    /// When it is due; the list is paged in this order.
    public var due: Date
    /// Whether it is done.
    public var done: Bool
    /// When it was last edited, anywhere.
    public var updatedAt: Date
    /// The project it belongs to, if any: the project's id here or the API's.
    public var projectId: String?

    /// Makes a task; a new one has no identifier or version yet.
    public init(
        id: String? = nil, version: String? = nil, title: String, due: Date, done: Bool = false,
        updatedAt: Date, projectId: String? = nil
    ) {
        (self.id, self.version, self.title, self.due, self.done, self.updatedAt, self.projectId) =
            (id, version, title, due, done, updatedAt, projectId)
    }
}
