import Foundation
import OfflineKit
import Promises
import Services

/// A project, which the API names `projects-<n>`.
struct Project: OfflineResource, Equatable {
    var id: String?
    var version: String?
    var name: String
}

/// A task in a project, maybe under another task.
struct PlannedTask: OfflineResource, Equatable {
    var id: String?
    var version: String?
    var title: String
    var projectID: String?
    var parentID: String?
}

/// The two collections of one database: a task names its project and its parent task.
struct ProjectsAndTasks {
    let projects: OfflineCollection<Project>
    let tasks: OfflineCollection<PlannedTask>

    init(database: Database, client: APIClient, reachability: any ConnectivityMonitor) {
        projects = OfflineCollection<Project>(
            database: database, collection: "projects", client: client, reachability: reachability)
        tasks = OfflineCollection<PlannedTask>(
            database: database, collection: "tasks", client: client, reachability: reachability
        )
        .referencing(.field(\.projectID, to: projects), .field(\.parentID, to: "tasks"))
    }

    /// Sends every change waiting in the database, each project's create before the tasks that
    /// name it.
    func sync() -> Promise<[OutboxSyncReport]> {
        let tasks = tasks
        return projects.sync().then { projects in
            tasks.sync().map { [projects, $0] }
        }
    }
}
