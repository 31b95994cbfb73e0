import Foundation
import PromiseMVPTestServer
import PromiseMVPTesting
import Promises
import Testing

@testable import Services

/// `BackgroundTransfers` on Linux (a plain session in this process, where Apple platforms have the
/// system's daemon) against the loopback REST API: each spooled request sent from its file, its
/// answer written beside it, and read back as the client reads its own.
@Suite("Background transfers")
struct BackgroundTransfersTests {
    let folder = TemporaryFolder("BackgroundTransfersTests")
    var spool: TransferSpool { TransferSpool(folder: folder.file("Transfers")) }

    /// The notes API holding `n1` and `n2`, served, and a client of it.
    func served() throws -> (TestResourceAPI, TestHTTPServer, APIClient) {
        let api = TestResourceAPI(
            collection: "notes", resources: [["id": "n1", "text": "Milk"], ["id": "n2", "text": "Tea"]])
        let server = try TestHTTPServer(responder: api.respond)
        return (api, server, APIClient(baseURL: server.baseURL, timeout: 30))
    }

    /// `request` spooled as the outbox spools a change.
    func spooled(_ client: APIClient, _ method: HTTPMethod, _ path: String, _ body: String?, key: String)
        async throws -> String
    {
        let body = body.map { Data($0.utf8) }
        let request = try #require(
            await PromiseExpectations.value(
                of: client.spooled(method, path, body: body, headers: ["Idempotency-Key": key])))
        return try spool.write(request, body: body)
    }

    @Test("a create, an update and a delete are sent from the spool, each once, answers kept")
    func sendsEachOnce() async throws {
        // Given: three requests spooled, none sent (of three resources: they go at once)
        let (api, _, client) = try served()
        let create = try await spooled(client, .post, "notes", #"{"text":"Eggs"}"#, key: "k1")
        let update = try await spooled(client, .put, "notes/n1", #"{"id":"n1","text":"Oat milk"}"#, key: "k2")
        let delete = try await spooled(client, .delete, "notes/n2", nil, key: "k3")
        #expect(api.writes.isEmpty && spool.waiting().count == 3)
        // When
        let transfers = BackgroundTransfers(spool: spool, identifier: "tests.\(UUID())")
        defer { transfers.finish() }
        let answered = await PromiseExpectations.value(of: transfers.resume())
        // Then: the three reached the API once each, with their keys, and each answer is kept
        #expect(answered == 3)
        #expect(
            Set(api.writes.map(\.description)) == [
                "POST /notes k1", "PUT /notes/n1 k2", "DELETE /notes/n2 k3",
            ])
        #expect(spool.waiting().isEmpty)
        guard case .answered(let created) = spool.state(of: create) else {
            Issue.record("the create has no answer")
            return
        }
        #expect(created.status == 201)
        let body = try client.reading(created, at: client.url(for: "notes")).get()
        #expect(String(decoding: body, as: UTF8.self).contains(#""text":"Eggs""#))
        if case .answered(let answer) = spool.state(of: update) {
            #expect(answer.status == 200)
        } else {
            Issue.record("the update has no answer")
        }
        if case .answered(let answer) = spool.state(of: delete) {
            #expect((200..<300).contains(answer.status ?? 0))
        } else {
            Issue.record("the delete has no answer")
        }
    }

    @Test("an answer read from the spool is the error the client reads for the same answer")
    func refusalReadAsTheClientReadsIt() async throws {
        // Given: the API refuses the update with a 409
        let (api, _, client) = try served()
        api.refuse("PUT /notes/n1", status: 409, body: #"{"error":"locked"}"#)
        let name = try await spooled(client, .put, "notes/n1", #"{"id":"n1","text":"x"}"#, key: "k")
        let transfers = BackgroundTransfers(spool: spool, identifier: "tests.\(UUID())")
        defer { transfers.finish() }
        // When
        _ = await PromiseExpectations.value(of: transfers.resume())
        // Then
        guard case .answered(let answer) = spool.state(of: name) else {
            Issue.record("no answer kept")
            return
        }
        let direct = await PromiseExpectations.error(
            of: client.exchange(.put, "notes/n1", body: Data(#"{"id":"n1","text":"x"}"#.utf8)))
        let read = client.reading(answer, at: client.url(for: "notes/n1"))
        guard case .failure(let error) = read else {
            Issue.record("a 409 was read as an answer")
            return
        }
        #expect(ServiceRequestError(error) == ServiceRequestError(try #require(direct)))
        #expect("\(error)".contains("locked"))
    }

    @Test("a request that reaches no server keeps the failure, read as offline")
    func unreachableKeepsTheFailure() async throws {
        // Given: a request to a port nothing listens on
        let port = try ClosedPort()
        let client = APIClient(baseURL: port.baseURL, timeout: 30)
        let name = try await spooled(client, .post, "notes", "{}", key: "k")
        let transfers = BackgroundTransfers(spool: spool, identifier: "tests.\(UUID())")
        defer { transfers.finish() }
        // When
        let answered = await PromiseExpectations.value(of: transfers.resume())
        // Then
        #expect(answered == 1)
        guard case .answered(let answer) = spool.state(of: name),
            case .failure(let error) = client.reading(
                answer, at: port.baseURL)
        else {
            Issue.record("no failure kept")
            return
        }
        #expect(answer.status == nil)
        #expect(FailureClass(error).kind == .offline)
    }

    @Test("a body longer than the limit is cut there and read as too large")
    func longAnswerCut() async throws {
        // Given: an answer of 4 kB, a limit of 1 kB
        let (api, _, client) = try served()
        api.refuse("PUT /notes/n1", status: 500, body: String(repeating: "x", count: 4_000))
        let name = try await spooled(client, .put, "notes/n1", "{}", key: "k")
        let transfers = BackgroundTransfers(
            spool: spool, identifier: "tests.\(UUID())", maximumAnswerBytes: 1_000)
        defer { transfers.finish() }
        // When
        _ = await PromiseExpectations.value(of: transfers.resume())
        // Then
        guard case .answered(let answer) = spool.state(of: name) else {
            Issue.record("no answer kept")
            return
        }
        #expect(answer.truncated && answer.body.count == 1_000 && answer.status == 500)
        guard
            case .failure(APIError.responseTooLarge) = client.reading(answer, at: client.url(for: "notes/n1"))
        else {
            Issue.record("a cut body was not read as too large")
            return
        }
    }

    @Test("nothing waiting: resume settles at once with none")
    func nothingWaiting() async {
        // Given an empty spool / When
        let transfers = BackgroundTransfers(spool: spool, identifier: "tests.\(UUID())")
        defer { transfers.finish() }
        // Then
        #expect(await PromiseExpectations.value(of: transfers.resume()) == 0)
    }
}
