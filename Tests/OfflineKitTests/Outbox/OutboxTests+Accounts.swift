import Foundation
import PromiseMVPTesting
import Promises
import Testing

@testable import OfflineKit
@testable import Services

extension OutboxTests {
    /// Credentials whose account changes after it was read `before` times: another account signs in
    /// at a moment a test picks, counted in reads rather than time.
    final class SwitchingAccount: Credentials {
        let before: Int
        /// How many times the account was read.
        let reads = Locked(0)

        init(signsInBobAfter before: Int) {
            self.before = before
        }

        var account: String? {
            reads.withLock { reads in
                reads += 1
                return reads <= before ? "amy" : "bob"
            }
        }

        func accessToken() -> Promise<String> { .value("token") }

        func refresh(replacing token: String) -> Promise<String> { .value("token") }
    }

    @Test("an account that signs in between a change's read and its send: the change waits for its own")
    func accountChangedBeforeTheSend() async throws {
        // Given: amy's change; the sync reads her account when it starts, and bob's by the time
        // it sends the change
        let (database, outbox) = try Self.notes()
        let server = try TestHTTPServer(responder: { _ in .status(200, body: "{}") })
        defer { server.stop() }
        _ = await PromiseExpectations.value(
            of: outbox.ready.then(on: .inline) {
                database.write { connection in
                    try outbox.record(
                        .put, "notes/n-1", json: ["text": "amy's"], localID: "n-1", account: "amy",
                        in: connection)
                }
            })
        let client = APIClient(baseURL: server.baseURL, timeout: 30, retry: .never)
            .authorized(by: SwitchingAccount(signsInBobAfter: 1))

        // When
        let report = await PromiseExpectations.value(of: outbox.sync(with: client) { _, _, _ in nil })

        // Then: nothing reached the API under bob's token; amy's change still waits
        #expect(server.requests.isEmpty)
        #expect(report?.sent.isEmpty == true)
        #expect(report?.stoppedBecause == .httpStatus(401))
        #expect(await PromiseExpectations.value(of: outbox.entries())?.map(\.account) == ["amy"])
    }

    @Test("a sync reads the sign-in once when it starts and once before each send, never in its transactions")
    func signInReadOutsideTransactions() async throws {
        // Given: three of amy's changes
        let (database, outbox) = try Self.notes()
        let server = try TestHTTPServer(responder: { _ in .status(200, body: "{}") })
        defer { server.stop() }
        _ = await PromiseExpectations.value(
            of: outbox.ready.then(on: .inline) {
                database.write { connection in
                    for number in 1...3 {
                        try outbox.record(
                            .put, "notes/n-\(number)", json: ["text": "amy's"], localID: "n-\(number)",
                            account: "amy", in: connection)
                    }
                }
            })
        let credentials = SwitchingAccount(signsInBobAfter: .max)  // amy's, whatever is read
        let client = APIClient(baseURL: server.baseURL, timeout: 30, retry: .never).authorized(
            by: credentials)

        // When
        let report = await PromiseExpectations.value(of: outbox.sync(with: client) { _, _, _ in nil })

        // Then: all three sent; one read to start and one a send, none in the four fills
        #expect(report?.sent.count == 3)
        #expect(credentials.reads.withLock { $0 } == 1 + 3)
    }
}
