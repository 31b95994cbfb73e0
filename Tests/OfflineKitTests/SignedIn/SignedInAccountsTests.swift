import Foundation
import PromiseMVPTesting
import Promises
import Testing

@testable import OfflineKit
@testable import Services

/// Each change belongs to the account that made it, and a sign-out that erases leaves nothing of
/// the account in the file.
@Suite("Signed-in APIs: accounts")
struct SignedInAccountsTests {
    typealias Task = OfflineCollectionTests.Task
    let amysTasks = TestResourceAPI(collection: "tasks")
    let bobsTasks = TestResourceAPI(collection: "tasks")
    let shop: SignedInTasks

    init() throws {
        shop = try SignedInTasks(
            "SignedInAccountsTests", users: ["amy": "apple", "bob": "battery"],
            tasks: ["amy": amysTasks, "bob": bobsTasks])
    }

    @Test(
        "Amy's changes and copy never reach Bob: they wait for Amy, and Bob uses the collection once they are erased"
    )
    func changesStayWithTheirAccount() async throws {
        // Given: Amy listed and made three changes offline, then signed out keeping them
        defer { shop.server.stop() }
        await shop.signIn("amy", "apple")
        let offline = try shop.tasks(online: false)
        for number in 1...3 {
            _ = await PromiseExpectations.value(of: offline.create(Task(title: "Amy \(number)")))
        }
        try shop.credentials.signOut()
        let tasks = try shop.tasks()

        // When: signed out, then Bob signs in
        let signedOut = await PromiseExpectations.value(of: tasks.sync())
        let unseen = await PromiseExpectations.error(of: tasks.snapshot())
        await shop.signIn("bob", "battery")
        let asBob = await PromiseExpectations.value(of: tasks.sync())
        let bobsRead = await PromiseExpectations.error(of: tasks.list(policy: .cacheOnly))
        let bobsWrite = await PromiseExpectations.error(of: offline.create(Task(title: "Bob 1")))

        // Then: nothing of Amy's went anywhere or was shown; Bob is told whose data it is
        #expect(signedOut?.stoppedBecause == .httpStatus(401))
        #expect(
            (unseen as? AuthenticationError)?.reason
                == "This device keeps amy's tasks: sign in as amy to see them.",
            "\(String(describing: unseen))")
        #expect(asBob?.sent.isEmpty == true)
        #expect(bobsRead.map { FailureClass($0).kind } == .signedOut, "\(String(describing: bobsRead))")
        #expect(bobsWrite.map { FailureClass($0).kind } == .signedOut)
        #expect(amysTasks.ids.isEmpty && bobsTasks.ids.isEmpty)
        #expect(shop.authority.requests.allSatisfy { !$0.hasPrefix("amy ") })

        // When: Amy signs in again
        try shop.credentials.signOut()
        await shop.signIn("amy", "apple")
        let asAmy = await PromiseExpectations.value(of: tasks.sync())
        // Then
        #expect(asAmy?.sent.count == 3)
        #expect(Set(amysTasks.resources(as: Task.self).map(\.title)) == ["Amy 1", "Amy 2", "Amy 3"])

        // When: Bob signs in and erases what Amy left
        try shop.credentials.signOut()
        await shop.signIn("bob", "battery")
        _ = await PromiseExpectations.value(of: tasks.erase(account: "amy"))
        _ = await PromiseExpectations.value(of: offline.create(Task(title: "Bob 1")))
        let bobsSync = await PromiseExpectations.value(of: tasks.sync())
        // Then: the collection is Bob's
        #expect(bobsSync?.sent.map(\.account) == ["bob"])
        #expect(bobsTasks.resources(as: Task.self).map(\.title) == ["Bob 1"])
        #expect(await PromiseExpectations.value(of: tasks.snapshot())?.values.map(\.title) == ["Bob 1"])
    }

    @Test(
        "a copy saved before sign-ins existed belongs to nobody; Amy's delete, her first write, makes it hers"
    )
    func firstWriteDeleteClaims() async throws {
        // Given: the copy listed by an app that had no sign-in yet (its client sends no token)
        defer { shop.server.stop() }
        let publicAPI = TestResourceAPI(collection: "tasks", resources: [["id": "t1", "title": "Milk"]])
        let publicServer = try TestHTTPServer(responder: publicAPI.respond)
        defer { publicServer.stop() }
        let before = OfflineCollection<Task>(
            database: try Database(at: shop.folder.file("tasks.sqlite")), collection: "tasks",
            client: APIClient(baseURL: publicServer.baseURL, timeout: 30, retry: .never),
            reachability: AssumeReachable())
        _ = await PromiseExpectations.value(of: before.list())

        // When: Amy's first write is a delete, offline; then Bob signs in
        await shop.signIn("amy", "apple")
        _ = await PromiseExpectations.value(of: try shop.tasks(online: false).delete(id: "t1"))
        try shop.credentials.signOut()
        await shop.signIn("bob", "battery")
        let bobsRead = await PromiseExpectations.error(of: try shop.tasks(online: false).snapshot())

        // Then: Bob is told whose data it is and what he can do
        #expect(
            (bobsRead as? AuthenticationError)?.reason
                == "This device keeps amy's tasks: sign in as amy, or erase their data first.",
            "\(String(describing: bobsRead))")
    }

    @Test(
        "Amy's tasks read by id, by page, by query or counted while Bob is signed in: refused, as a listing is"
    )
    func everyReadChecksTheAccount() async throws {
        // Given: a task Amy made offline, then Bob signed in
        defer { shop.server.stop() }
        await shop.signIn("amy", "apple")
        let offline = try shop.tasks(online: false)
        let amys = try #require(await PromiseExpectations.value(of: offline.create(Task(title: "Amy's"))))
        try shop.credentials.signOut()
        await shop.signIn("bob", "battery")

        // When
        let reads: [(String, (any Error)?)] = [
            ("by id", await PromiseExpectations.error(of: offline.fetch(id: amys.id ?? ""))),
            (
                "by page",
                await PromiseExpectations.error(of: offline.page(limit: 5, order: .ascending("title")))
            ),
            ("by query", await PromiseExpectations.error(of: offline.query(OfflineQuery(limit: 5)))),
            ("counted", await PromiseExpectations.error(of: offline.count())),
        ]

        // Then: each told whose data it is, none shown it
        for (read, error) in reads {
            #expect(
                error.map { FailureClass($0).kind } == .signedOut, "\(read): \(String(describing: error))")
        }
    }

    @Test("erasing an account says first what it drops, then leaves no byte of it in the file or its -wal")
    func eraseLeavesNothing() async throws {
        // Given: Amy's copy holds a marked task from the API, and a marked change waits
        defer { shop.server.stop() }
        let marker = "MARKER-7f3a9c"
        await shop.signIn("amy", "apple")
        let tasks = try shop.tasks()
        _ = await PromiseExpectations.value(of: tasks.create(Task(title: "\(marker) from the API")))
        _ = await PromiseExpectations.value(of: tasks.list())
        _ = await PromiseExpectations.value(
            of: try shop.tasks(online: false).create(Task(title: "\(marker) here")))
        #expect(await PromiseExpectations.value(of: tasks.unsentChanges(of: "amy")) == 1)
        #expect(await PromiseExpectations.value(of: tasks.owner()) == "amy")
        #expect(try fileBytesContain(marker))

        // When
        let dropped = await PromiseExpectations.value(of: tasks.erase(account: "amy"))

        // Then
        #expect(dropped == 1)
        #expect(await PromiseExpectations.value(of: tasks.owner()) == .some(nil))
        #expect(try !fileBytesContain(marker))
        let erased = await PromiseExpectations.value(of: tasks.snapshot())
        #expect(erased?.items.isEmpty == true)
        #expect(erased.map { $0.savedAt == nil } == true, "the copy's date and validators go too")
    }

    @Test("erasing an account drops the requests its changes handed to a transfer service")
    func eraseDropsHandedOffRequests() async throws {
        // Given: a change of Amy's handed off, its request (with her token) in the spool
        defer { shop.server.stop() }
        await shop.signIn("amy", "apple")
        let spool = TransferSpool(folder: shop.folder.file("Transfers"))
        let tasks = try shop.tasks().handingOff(to: spool)
        _ = await PromiseExpectations.value(of: try shop.tasks(online: false).create(Task(title: "Milk")))
        let handed = await PromiseExpectations.value(of: tasks.handOff())
        #expect(handed?.handedOff.count == 1 && spool.waiting().count == 1)

        // When
        let dropped = await PromiseExpectations.value(of: tasks.erase(account: "amy"))

        // Then: nothing of it is left for the service to send
        #expect(dropped == 1)
        #expect(spool.all().isEmpty)
    }

    @Test("signed out, a hand-off writes nothing for the service and stops as a 401 would")
    func signedOutHandsNothingOff() async throws {
        // Given: nobody signed in, a change made offline, and a spool
        defer { shop.server.stop() }
        let spool = TransferSpool(folder: shop.folder.file("Transfers"))
        let tasks = try shop.tasks().handingOff(to: spool)
        _ = await PromiseExpectations.value(of: try shop.tasks(online: false).create(Task(title: "Milk")))

        // When
        let report = await PromiseExpectations.value(of: tasks.handOff())

        // Then
        #expect(report?.stoppedBecause == .httpStatus(401) && report?.handedOff.isEmpty == true)
        #expect(spool.all().isEmpty)
    }

    /// Whether the database file or its log holds `marker`'s bytes anywhere.
    func fileBytesContain(_ marker: String) throws -> Bool {
        let needle = Data(marker.utf8)
        return try ["tasks.sqlite", "tasks.sqlite-wal"].contains { name in
            let url = shop.folder.file(name)
            guard FileManager.default.fileExists(atPath: url.path) else { return false }
            return try Data(contentsOf: url).range(of: needle) != nil
        }
    }
}
