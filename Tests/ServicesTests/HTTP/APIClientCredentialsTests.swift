import Foundation
import PromiseMVPTesting
import Promises
import Testing

@testable import Services

/// A signed-in client (`APIClient+Credentials.swift`): the token goes with each request, a `401`
/// costs one refresh and one resend, and no other refusal costs a refresh.
@Suite("APIClient with credentials")
struct APIClientCredentialsTests {
    /// The `Authorization` field of each request the server got, in order.
    final class Tokens: Sendable {
        private let lock = Locked<[String]>([])
        var seen: [String] { lock.withLock { $0 } }
        func record(_ request: TestHTTPServer.Request) {
            lock.withLock { $0.append(request.headers["authorization"] ?? "-") }
        }
    }

    @Test("a 401 costs one refresh, and the request goes again with the new token")
    func refusedTokenIsRefreshedOnce() async throws {
        // Given: an API that takes only the refreshed token
        let tokens = Tokens()
        let server = try TestHTTPServer(responder: { request in
            tokens.record(request)
            return request.headers["authorization"] == "Bearer t1"
                ? .status(200, body: "7") : .status(401, body: "{}")
        })
        defer { server.stop() }
        let credentials = NewTokenEachTime()
        let client = APIClient(baseURL: server.baseURL, timeout: 30, retry: .never)
            .authorized(by: credentials)

        // When
        let value = await PromiseExpectations.value(of: client.get("songs", as: Int.self))

        // Then
        #expect(value == 7)
        #expect(tokens.seen == ["Bearer t0", "Bearer t1"])
        #expect(credentials.refreshes.withLock { $0 } == 1)
    }

    @Test("a refusal other than 401 is the answer: no refresh, nothing sent again")
    func otherRefusalCostsNoRefresh() async throws {
        // Given: an API that forbids the request whatever the token
        let tokens = Tokens()
        let server = try TestHTTPServer(responder: { request in
            tokens.record(request)
            return .status(403, body: "{}")
        })
        defer { server.stop() }
        let credentials = NewTokenEachTime()
        let client = APIClient(baseURL: server.baseURL, timeout: 30, retry: .never)
            .authorized(by: credentials)

        // When
        let error = await PromiseExpectations.error(of: client.get("songs", as: Int.self))

        // Then
        #expect(error.map(ServiceRequestError.init) == .httpStatus(403))
        #expect(tokens.seen == ["Bearer t0"])
        #expect(credentials.refreshes.withLock { $0 } == 0)
    }
}
