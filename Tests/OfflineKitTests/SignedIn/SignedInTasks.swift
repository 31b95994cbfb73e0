import Foundation
import PromiseMVPTesting
import Promises
import Testing

@testable import OfflineKit
@testable import Services

/// Tasks behind an API that wants signed-in users: each user's tasks behind a token authority on a
/// loopback server, one sign-in (`credentials`), and this device's file in `folder`.
struct SignedInTasks {
    typealias Task = OfflineCollectionTests.Task
    let folder: TemporaryFolder
    let authority: TestTokenAuthority
    let server: TestHTTPServer
    let credentials: OAuthCredentials

    /// - Parameters:
    ///   - name: The temporary folder's name.
    ///   - users: Each user's password.
    ///   - tasks: Each user's tasks, as the API keeps them.
    /// - Throws: Why the server could not start.
    init(_ name: String, users: [String: String], tasks: [String: TestResourceAPI]) throws {
        folder = TemporaryFolder(name)
        authority = TestTokenAuthority(users: users) { tasks[$0]?.respond }
        server = try TestHTTPServer(responder: authority.respond)
        credentials = OAuthCredentials(
            tokenURL: server.baseURL.appendingPathComponent("oauth/token"), timeout: 30)
    }

    /// A client of the API made for `credentials`.
    var client: APIClient {
        APIClient(baseURL: server.baseURL, timeout: 30, retry: .never).authorized(by: credentials)
    }

    /// The tasks on this device's file, through `client`.
    func tasks(online: Bool = true) throws -> OfflineCollection<Task> {
        OfflineCollection<Task>(
            database: try Database(at: folder.file("tasks.sqlite")), collection: "tasks", client: client,
            reachability: online ? AssumeReachable() : OfflineCollectionTests.Offline())
    }

    /// Signs `user` in, waiting for it.
    func signIn(_ user: String, _ password: String) async {
        _ = await PromiseExpectations.value(of: credentials.signIn(user: user, password: password))
    }
}
