import Foundation
import PromiseMVPTesting
import Testing

@testable import OfflineKit
@testable import Services

/// `fetch(id:)` of a resource the copy does not hold (`OfflineCollection+Fetch.swift`): what the
/// screen is told depends on why the API could not give it.
extension OfflineCollectionTests {
    @Test("a task neither the API nor the copy gives is 'no data' where the API is unreachable")
    func unreachableAndNotKeptIsNoData() async throws {
        // Given: an empty copy, and an address nothing listens on, thought reachable
        let database = try Database(at: folder.file("tasks.sqlite"))
        let tasks = OfflineCollection<Task>(
            database: database, collection: "tasks",
            client: APIClient(baseURL: try ClosedPort().baseURL, timeout: 30, retry: .never))

        // When
        let error = await PromiseExpectations.error(of: tasks.fetch(id: "t9"))

        // Then: nothing to show, not the connection's error
        #expect(error.map(ServiceRequestError.init) == .noData, "\(String(describing: error))")
    }

    @Test("a task neither the API nor the copy gives is the API's error where the API answered")
    func answeredAndNotKeptIsTheAPIsError() async throws {
        // Given: an empty copy, and an API in trouble
        let server = try TestHTTPServer { _ in .status(500, body: "{}") }
        defer { server.stop() }
        let (_, tasks) = try tasks(server, online: true)

        // When
        let error = await PromiseExpectations.error(of: tasks.fetch(id: "t9"))

        // Then
        #expect(
            FailureClass(error ?? ServiceRequestError.noData).status == 500, "\(String(describing: error))")
    }
}
