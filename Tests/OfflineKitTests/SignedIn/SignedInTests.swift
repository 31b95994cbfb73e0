import Foundation
import PromiseMVPTesting
import Promises
import Testing

@testable import OfflineKit
@testable import Services

/// A collection behind an API that wants signed-in users: tokens that expire lose no write, a
/// refresh is shared, a sign-in that ends pauses the outbox, and no token leaves the API's origin.
@Suite("Signed-in APIs")
struct SignedInTests {
    typealias Task = OfflineCollectionTests.Task
    let amysTasks = TestResourceAPI(collection: "tasks")
    let shop: SignedInTasks

    init() throws {
        shop = try SignedInTasks("SignedInTests", users: ["amy": "apple"], tasks: ["amy": amysTasks])
    }

    /// Twenty tasks created offline while signed in as Amy.
    func twentyQueued() async throws {
        await shop.signIn("amy", "apple")
        let offline = try shop.tasks(online: false)
        for number in 1...20 {
            _ = await PromiseExpectations.value(of: offline.create(Task(title: "Task \(number)")))
        }
    }

    @Test("20 changes queued offline, the token expired meanwhile: each delivered once, after one refresh")
    func expiredTokenLosesNothing() async throws {
        // Given
        defer { shop.server.stop() }
        try await twentyQueued()
        shop.authority.expireTokens()
        // When
        let report = await PromiseExpectations.value(of: try shop.tasks().sync())
        // Then
        #expect(report?.sent.count == 20)
        #expect(amysTasks.keysApplied.count == 20)
        #expect(amysTasks.ids.count == 20)
        #expect(shop.authority.refreshes == 1)
        #expect(shop.authority.refused == 1)
    }

    @Test("a refused refresh pauses the sync: nothing refused or counted, signed out; a sign-in resumes it")
    func refusedRefreshPauses() async throws {
        // Given: the password changed elsewhere, so the refresh token is refused
        defer { shop.server.stop() }
        try await twentyQueued()
        shop.authority.changePassword(of: "amy", to: "pear")
        let tasks = try shop.tasks()
        // When
        let paused = await PromiseExpectations.value(of: tasks.sync())
        // Then
        #expect(paused?.sent.isEmpty == true)
        #expect(paused?.refused.isEmpty == true)
        #expect(paused?.stoppedBecause == .httpStatus(401))
        let status = await PromiseExpectations.value(of: tasks.status())
        #expect(status?.waiting == 20)
        #expect(status?.refused == 0)
        #expect(shop.credentials.account == nil)
        #expect(shop.credentials.signedOutReason != nil)
        let entries = await PromiseExpectations.value(of: tasks.outbox.entries())
        #expect(entries?.allSatisfy { $0.failures == 0 } == true)

        // When: Amy signs in again
        _ = await PromiseExpectations.value(of: shop.credentials.signIn(user: "amy", password: "pear"))
        let resumed = await PromiseExpectations.value(of: tasks.sync())
        // Then
        #expect(resumed?.sent.count == 20)
        #expect(amysTasks.keysApplied.count == 20)
    }

    @Test("a 401 storm that no refresh ends costs one refresh and stops the sync, nothing refused or counted")
    func stormCostsOneRefresh() async throws {
        // Given: every request refused, even with a token just granted
        defer { shop.server.stop() }
        try await twentyQueued()
        shop.authority.refuseEveryToken()
        let tasks = try shop.tasks()
        // When
        let report = await PromiseExpectations.value(of: tasks.sync())
        // Then: the first change tried twice (before and after the refresh), then the sync stopped
        #expect(report?.stoppedBecause == .httpStatus(401))
        #expect(report?.sent.isEmpty == true && report?.refused.isEmpty == true)
        #expect(shop.authority.refreshes == 1)
        #expect(shop.authority.refused == 2)
        let entries = await PromiseExpectations.value(of: tasks.outbox.entries())
        #expect(
            entries?.count == 20 && entries?.allSatisfy { $0.failures == 0 && $0.state == .pending } == true)
    }

    @Test(
        "a scheduler that found nobody signed in resumes by itself at the next sign-in and sends everything")
    func schedulerResumesAtSignIn() async throws {
        // Given: the refresh refused, so the scheduler's first sync stops signed out
        defer { shop.server.stop() }
        try await twentyQueued()
        shop.authority.changePassword(of: "amy", to: "pear")
        let tasks = try shop.tasks()
        let scheduler = SyncScheduler(clock: TestClock()) { tasks.sync() }
        scheduler.follow(shop.credentials)
        let states = DeliveryRecorder<SyncSchedulerState>()
        let observation = scheduler.observe(on: .inline) { states.record($0) }
        scheduler.start()
        _ = await states.next(where: { $0 == .signedOut })
        // When: Amy signs in again; nothing else is called
        _ = await PromiseExpectations.value(of: shop.credentials.signIn(user: "amy", password: "pear"))
        // Then
        _ = await states.next(where: { $0 == .idle })
        #expect(scheduler.lastReport?.sent.count == 20)
        #expect(amysTasks.keysApplied.count == 20)
        await scheduler.stop().value
        observation.cancel()
    }

    @Test("ten reads at once on an expired token: one refresh, each read answered")
    func oneRefreshForManyReads() async throws {
        // Given: ten of Amy's tasks
        shop.server.stop()
        let ten = TestResourceAPI(
            collection: "tasks", resources: (1...10).map { ["id": "t\($0)", "title": "Task \($0)"] })
        let shop = try SignedInTasks("SignedInTests", users: ["amy": "apple"], tasks: ["amy": ten])
        defer { shop.server.stop() }
        await shop.signIn("amy", "apple")
        shop.authority.expireTokens()
        // When
        let reads = (1...10).map { shop.client.get("tasks/t\($0)", as: Task.self) }
        let answered = await PromiseExpectations.value(of: when(fulfilled: reads))
        // Then
        #expect(answered?.map(\.title) == (1...10).map { "Task \($0)" })
        #expect(shop.authority.refreshes == 1)
    }

    @Test("a read redirected to another origin is not followed and carries no token there")
    func noTokenToAnotherOrigin() async throws {
        // Given: the API sends its reads to another shop.server, which records what it gets
        defer { shop.server.stop() }
        let elsewhere = DeliveryRecorder<TestHTTPServer.Request>()
        let other = try TestHTTPServer { request in
            elsewhere.record(request)
            return .status(200, body: "[]")
        }
        defer { other.stop() }
        let redirecting = try TestHTTPServer { request in
            request.headers["authorization"] == nil
                ? .status(401, body: "{}")
                : .redirect(to: other.baseURL.appendingPathComponent("tasks").absoluteString)
        }
        defer { redirecting.stop() }
        await shop.signIn("amy", "apple")
        let client = APIClient(baseURL: redirecting.baseURL, timeout: 30, retry: .never).authorized(
            by: shop.credentials)
        // When
        let error = await PromiseExpectations.error(of: client.get("tasks", as: [Task].self))
        // Then
        #expect(FailureClass(error ?? ServiceRequestError.unknownError).kind == .offline)
        #expect(elsewhere.all.isEmpty)
        #expect(redirecting.requests.count == 1)
    }

    @Test("a 403 is a refusal, not a sign-in: no refresh")
    func forbiddenIsRefused() async throws {
        // Given
        defer { shop.server.stop() }
        let forbidding = try TestHTTPServer { _ in .status(403, body: #"{"error": "not yours"}"#) }
        defer { forbidding.stop() }
        await shop.signIn("amy", "apple")
        let client = APIClient(baseURL: forbidding.baseURL, timeout: 30, retry: .never).authorized(
            by: shop.credentials)
        // When
        let error = await PromiseExpectations.error(of: client.get("tasks", as: [Task].self))
        // Then
        #expect(FailureClass(error ?? ServiceRequestError.unknownError).kind == .refused)
        #expect(shop.authority.refreshes == 0)
        #expect(forbidding.requests.count == 1)
    }
}
