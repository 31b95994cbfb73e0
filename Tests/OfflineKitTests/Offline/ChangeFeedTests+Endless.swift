import Foundation
import PromiseMVPTesting
import Promises
import Testing

@testable import OfflineKit
@testable import Services

extension ChangeFeedTests {
    /// A feed that never ends: a listing with `Sync-Token: t0`, then for `?since=tN` one task and
    /// `"more": true`, for ever; `padding` bytes of note in each page.
    static func endlessFeed(padding: Int) -> @Sendable (TestHTTPServer.Request) -> TestHTTPServer.Reply {
        let note = String(repeating: "x", count: padding)
        return { request in
            guard let since = request.path.components(separatedBy: "since=").dropFirst().first else {
                return .status(200, body: "[]", headers: ["Sync-Token": "t0"])
            }
            let number = Int(since.dropFirst()) ?? 0
            return .status(
                200,
                body:
                    #"{"changes": [{"id": "n\#(number)", "title": "page \#(number)", "note": "\#(note)"}], "#
                    + #""deleted": [], "next": "t\#(number + 1)", "more": true}"#)
        }
    }

    @Test(
        "an endless feed is applied a page at a time, stops after 1,000 pages, and the next refresh goes on from there"
    )
    func endlessFeedStops() async throws {
        // Given: listed once, the API's feed then endless
        let server = try TestHTTPServer(responder: Self.endlessFeed(padding: 1_024))
        defer { server.stop() }
        let tasks = try tasks(server)
        _ = await PromiseExpectations.value(of: tasks.list())

        // When
        // A thousand pages take minutes under ThreadSanitizer on two loaded cores (781 in 120 s
        // once): only a hang reaches this wait.
        let error = await PromiseExpectations.error(of: tasks.refresh(), timeout: 900)
        let kept = await PromiseExpectations.value(of: tasks.snapshot())
        let firstRun = feedRequests(server)
        _ = await PromiseExpectations.error(of: tasks.refresh(), timeout: 900)

        // Then: the 1,000 pages it read are kept with their token, and the next refresh asks from it
        #expect(
            ServiceRequestError(error ?? APIError.notHTTP)
                == .decodingFailed(
                    type: "change feed", reason: "it did not end after 1000 pages"))
        #expect(kept?.values.count == 1_000)
        #expect(firstRun == 1_000)
        let second = server.requests.filter { $0.contains("since=") }.dropFirst(1_000).first
        #expect(second?.contains("since=t1000 ") == true, "\(second ?? "none")")
        #expect(server.requests.filter { $0.hasPrefix("GET /tasks HTTP") }.count == 1)
    }

    @Test("a Sync-Token longer than 4 KiB is not kept: the listing works, the next refresh lists whole")
    func oversizedTokenIsNotKept() async throws {
        // Given
        let token = String(repeating: "t", count: 50_000)  // under the transport's own 100 KiB header limit
        let server = try TestHTTPServer([
            "/tasks": .status(200, body: #"[{"id": "a", "title": "A"}]"#, headers: ["Sync-Token": token])
        ])
        defer { server.stop() }
        let tasks = try tasks(server)

        // When
        let listed = await PromiseExpectations.value(of: tasks.list())
        let refreshed = await PromiseExpectations.value(of: tasks.refresh())

        // Then
        #expect(listed?.value.values.map(\.title) == ["A"])
        #expect(refreshed == .listed(count: 1))
        #expect(feedRequests(server) == 0)
    }

    @Test("a feed that fails part way keeps the batches applied before: pages are applied 4 MiB at a time")
    func failedFeedKeepsEarlierBatches() async throws {
        // Given: listed once; then pages of 1 MiB each, and the API failing at the tenth
        let endless = Self.endlessFeed(padding: 1 << 20)
        let server = try TestHTTPServer { request in
            request.path.hasSuffix("since=t9") ? .status(503, body: "") : endless(request)
        }
        defer { server.stop() }
        let tasks = try tasks(server)
        _ = await PromiseExpectations.value(of: tasks.list())

        // When
        let error = await PromiseExpectations.error(of: tasks.refresh(), timeout: 120)
        let kept = await PromiseExpectations.value(of: tasks.snapshot())

        // Then: the pages of the batches that reached 4 MiB are kept, not the ones after
        #expect(error != nil)
        #expect(feedRequests(server) == 10)
        let count = kept?.values.count ?? 0
        #expect(count >= 4 && count < 9, "\(count)")
    }

    @Test(
        "small pages are gathered into one batch: a feed failing before the batch is applied keeps none of it"
    )
    func smallPagesWaitForTheirBatch() async throws {
        // Given: listed once; then small pages, and the API failing at the fourth
        let endless = Self.endlessFeed(padding: 16)
        let server = try TestHTTPServer { request in
            request.path.hasSuffix("since=t3") ? .status(503, body: "") : endless(request)
        }
        defer { server.stop() }
        let tasks = try tasks(server)
        _ = await PromiseExpectations.value(of: tasks.list())

        // When
        let error = await PromiseExpectations.error(of: tasks.refresh())
        let kept = await PromiseExpectations.value(of: tasks.snapshot())

        // Then: three pages read, none applied on its own
        #expect(error != nil)
        #expect(feedRequests(server) == 4)
        #expect(kept?.values.isEmpty == true)
    }

    @Test("a page's deleted ids count toward its batch's 4 MiB: a page of 4.5 MiB of them is applied alone")
    func deletedIdsFillABatch() async throws {
        // Given: listed once; a first page deleting five ids of 0.9 MiB each, then the API failing
        let long = String(repeating: "d", count: 900 << 10)
        let deleted = (0..<5).map { #""\#($0)\#(long)""# }.joined(separator: ", ")
        let server = try TestHTTPServer { request in
            if request.path.hasSuffix("since=t0") {
                return .status(
                    200, body: #"{"changes": [], "deleted": [\#(deleted)], "next": "t1", "more": true}"#)
            }
            let listing = Self.endlessFeed(padding: 0)
            return request.path.contains("since=") ? .status(503, body: "") : listing(request)
        }
        defer { server.stop() }
        let tasks = try tasks(server)
        _ = await PromiseExpectations.value(of: tasks.list())

        // When: a refresh fails after that page, and another follows
        let failed = await PromiseExpectations.error(of: tasks.refresh(), timeout: 60)
        _ = await PromiseExpectations.error(of: tasks.refresh(), timeout: 60)

        // Then: the page was applied with its token: the next refresh asks from after it
        let asked = server.requests.filter { $0.contains("since=") }
        #expect(failed != nil)
        #expect(asked.count == 3)
        #expect(asked.last?.contains("since=t1 ") == true, "\(asked.last ?? "none")")
    }
}
