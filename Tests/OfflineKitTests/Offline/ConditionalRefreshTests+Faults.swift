import Foundation
import PromiseMVPTesting
import Promises
import Testing

@testable import OfflineKit
@testable import Services

/// `refresh()` where it must not list: the network known to be down, and a `304` the collection
/// never asked for.
extension ConditionalRefreshTests {
    @Test("refresh() while the monitor says offline asks the API nothing and says so")
    func offlineRefreshAsksNothing() async throws {
        // Given: an API that would answer, and a monitor that knows the network is down
        let server = try TestHTTPServer(responder: api.respond)
        defer { server.stop() }
        let tasks = OfflineCollection<Task>(
            database: try Database(at: folder.file("tasks.sqlite")), collection: "tasks",
            client: APIClient(baseURL: server.baseURL, timeout: 30, retry: .never),
            reachability: OfflineCollectionTests.Offline())

        // When
        let error = await PromiseExpectations.error(of: tasks.refresh())

        // Then
        #expect(error as? ServiceRequestError == .noNetwork)
        #expect(server.requests.isEmpty)
    }

    @Test(
        "a feature's listing that answers 'not modified' to a request without validators is an error, not 'unchanged'"
    )
    func unaskedNotModifiedFails() async throws {
        // Given: nothing listed yet, and a feature's own listing that says "not modified" anyway
        let server = try TestHTTPServer(responder: api.respond)
        defer { server.stop() }
        let (database, tasks) = try tasks(server, clock: TestClock())

        // When
        let refreshed = await PromiseExpectations.error(
            of: tasks.refresh(fetchingConditionally: { _ in .value(.notModified) }))

        // Then: no copy was made to look fresh
        #expect(refreshed != nil)
        let stamp = await PromiseExpectations.value(of: database.read { try $0.cacheStamp("offline:tasks") })
        #expect(stamp == .some(nil))
    }
    @Test(
        "a listing answered 'not modified' with nothing listed yet says nothing is saved, not that it is fresh"
    )
    func unaskedNotModifiedListingIsNotFresh() async throws {
        // Given: nothing listed yet, and a feature's own listing that says "not modified" anyway
        let server = try TestHTTPServer(responder: api.respond)
        defer { server.stop() }
        let (database, tasks) = try tasks(server, clock: TestClock())

        // When
        let listed = await PromiseExpectations.value(
            of: tasks.list(policy: .networkFirst, showingCopy: { _ in }) { _ in .value(.notModified) })

        // Then: what this device holds (nothing), and no copy made to look fresh
        #expect(listed?.source == .nothingSaved)
        #expect(listed?.value.values.isEmpty == true)
        let stamp = await PromiseExpectations.value(of: database.read { try $0.cacheStamp("offline:tasks") })
        #expect(stamp == .some(nil))
    }
}
