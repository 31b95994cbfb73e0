import Foundation
import PromiseMVPTesting
import Promises
import Testing

@testable import Services

/// Each change belongs to the account that made it, and a sign-out that erases leaves nothing of
/// the account in the file.
@Suite("Signed-in APIs: accounts")
struct SignedInAccountsTests {
    typealias Task = OfflineCollectionTests.Task
    let folder = TemporaryFolder("SignedInAccountsTests")
    let amysTasks = TestResourceAPI(collection: "tasks")
    let bobsTasks = TestResourceAPI(collection: "tasks")
    let authority: TestTokenAuthority
    let server: TestHTTPServer
    let credentials: OAuthCredentials

    init() throws {
        let (amy, bob) = (amysTasks, bobsTasks)
        authority = TestTokenAuthority(users: ["amy": "apple", "bob": "battery"]) { user in
            user == "amy" ? amy.respond : user == "bob" ? bob.respond : nil
        }
        server = try TestHTTPServer(responder: authority.respond)
        credentials = OAuthCredentials(
            tokenURL: server.baseURL.appendingPathComponent("oauth/token"), timeout: 5)
    }

    func tasks(online: Bool = true) throws -> OfflineCollection<Task> {
        OfflineCollection<Task>(
            database: try Database(at: folder.file("tasks.sqlite")), collection: "tasks",
            client: APIClient(baseURL: server.baseURL, timeout: 5, retry: .never).authorized(by: credentials),
            reachability: online ? AssumeReachable() : OfflineCollectionTests.Offline())
    }

    func signIn(_ user: String, _ password: String) async {
        _ = await PromiseExpectations.value(of: credentials.signIn(user: user, password: password))
    }

    @Test(
        "Amy's changes and copy never reach Bob: they wait for Amy, and Bob uses the collection once they are erased"
    )
    func changesStayWithTheirAccount() async throws {
        // Given: Amy listed and made three changes offline, then signed out keeping them
        defer { server.stop() }
        await signIn("amy", "apple")
        let offline = try tasks(online: false)
        for number in 1...3 {
            _ = await PromiseExpectations.value(of: offline.create(Task(title: "Amy \(number)")))
        }
        try credentials.signOut()
        let tasks = try tasks()

        // When: signed out, then Bob signs in
        let signedOut = await PromiseExpectations.value(of: tasks.sync())
        let unseen = await PromiseExpectations.error(of: tasks.snapshot())
        await signIn("bob", "battery")
        let asBob = await PromiseExpectations.value(of: tasks.sync())
        let bobsRead = await PromiseExpectations.error(of: tasks.list(policy: .cacheOnly))
        let bobsWrite = await PromiseExpectations.error(of: offline.create(Task(title: "Bob 1")))

        // Then: nothing of Amy's went anywhere or was shown; Bob is told whose data it is
        #expect(signedOut?.stoppedBecause == .httpStatus(401))
        #expect(
            (unseen as? AuthenticationError)?.reason.contains("amy") == true, "\(String(describing: unseen))")
        #expect(asBob?.sent.isEmpty == true)
        #expect(bobsRead.map { FailureClass($0).kind } == .signedOut, "\(String(describing: bobsRead))")
        #expect(bobsWrite.map { FailureClass($0).kind } == .signedOut)
        #expect(amysTasks.ids.isEmpty && bobsTasks.ids.isEmpty)
        #expect(authority.requests.allSatisfy { !$0.hasPrefix("amy ") })

        // When: Amy signs in again
        try credentials.signOut()
        await signIn("amy", "apple")
        let asAmy = await PromiseExpectations.value(of: tasks.sync())
        // Then
        #expect(asAmy?.sent.count == 3)
        #expect(Set(amysTasks.resources(as: Task.self).map(\.title)) == ["Amy 1", "Amy 2", "Amy 3"])

        // When: Bob signs in and erases what Amy left
        try credentials.signOut()
        await signIn("bob", "battery")
        _ = await PromiseExpectations.value(of: tasks.erase(account: "amy"))
        _ = await PromiseExpectations.value(of: offline.create(Task(title: "Bob 1")))
        let bobsSync = await PromiseExpectations.value(of: tasks.sync())
        // Then: the collection is Bob's
        #expect(bobsSync?.sent.map(\.account) == ["bob"])
        #expect(bobsTasks.resources(as: Task.self).map(\.title) == ["Bob 1"])
        #expect(await PromiseExpectations.value(of: tasks.snapshot())?.values.map(\.title) == ["Bob 1"])
    }

    @Test("erasing an account says first what it drops, then leaves no byte of it in the file or its -wal")
    func eraseLeavesNothing() async throws {
        // Given: Amy's copy holds a marked task from the API, and a marked change waits
        defer { server.stop() }
        let marker = "MARKER-7f3a9c"
        await signIn("amy", "apple")
        let tasks = try tasks()
        _ = await PromiseExpectations.value(of: tasks.create(Task(title: "\(marker) from the API")))
        _ = await PromiseExpectations.value(of: tasks.list())
        _ = await PromiseExpectations.value(
            of: try self.tasks(online: false).create(Task(title: "\(marker) here")))
        #expect(await PromiseExpectations.value(of: tasks.unsentChanges(of: "amy")) == 1)
        #expect(try fileBytesContain(marker))

        // When
        let dropped = await PromiseExpectations.value(of: tasks.erase(account: "amy"))

        // Then
        #expect(dropped == 1)
        #expect(try !fileBytesContain(marker))
        #expect(await PromiseExpectations.value(of: tasks.snapshot())?.items.isEmpty == true)
    }

    /// Whether the database file or its log holds `marker`'s bytes anywhere.
    func fileBytesContain(_ marker: String) throws -> Bool {
        let needle = Data(marker.utf8)
        return try ["tasks.sqlite", "tasks.sqlite-wal"].contains { name in
            let url = folder.file(name)
            guard FileManager.default.fileExists(atPath: url.path) else { return false }
            return try Data(contentsOf: url).range(of: needle) != nil
        }
    }
}
