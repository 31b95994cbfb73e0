import Foundation
import OfflineKit
import PromiseMVPTesting
import Promises
import Services
import Testing

/// `OfflineAttachments.erase(account:)`: a sign-out that erases leaves nothing of the account's
/// files (rows, uploads, the API's ids, kept bytes no one else keeps), and nothing of anyone
/// else's goes with them.
@Suite("Signed-in APIs: attachments")
struct SignedInAttachmentsTests {
    let base = OfflineAttachmentsTests()
    let uploads = TestUploadAPI()
    let authority: TestTokenAuthority
    let server: TestHTTPServer
    let credentials: OAuthCredentials

    init() throws {
        let uploads = uploads
        authority = TestTokenAuthority(users: ["amy": "apple"]) { _ in
            { uploads.respond($0) ?? .status(404, body: "") }
        }
        server = try TestHTTPServer(responder: authority.respond)
        credentials = OAuthCredentials(
            tokenURL: server.baseURL.appendingPathComponent("oauth/token"), timeout: 30)
    }

    /// The attachments of this device's file through a client signed in with `credentials`, or
    /// through one with no sign-in.
    func attachments(signedIn: Bool) throws -> OfflineAttachments {
        let client = APIClient(baseURL: server.baseURL, timeout: 900, retry: .never)
        return OfflineAttachments(
            database: try Database(at: base.databaseFile),
            client: signedIn ? client.authorized(by: credentials) : client, chunkSize: 1_000)
    }

    @Test(
        "erasing an account's files drops its rows, uploads, ids and bytes; another's, and shared bytes, stay"
    )
    func eraseLeavesOthers() async throws {
        // Given: Amy uploaded one photo and attached two more; a photo made with no sign-in has
        // the same bytes as one of hers
        defer { server.stop() }
        _ = await PromiseExpectations.value(of: credentials.signIn(user: "amy", password: "apple"))
        let amys = try attachments(signedIn: true)
        let nobodys = try attachments(signedIn: false)
        let attach = {
            (files: OfflineAttachments, name: String, bytes: Int) async throws -> OfflineAttachment in
            try #require(
                await PromiseExpectations.value(
                    of: files.attach(fileAt: try base.photo(name, bytes: bytes), contentType: "image/jpeg")))
        }
        let uploaded = try await attach(amys, "sent.jpg", 3_000)
        _ = await PromiseExpectations.value(of: amys.sync())
        let shared = try await attach(nobodys, "shared.jpg", 9_500)
        let same = try await attach(amys, "same.jpg", 9_500)
        let own = try await attach(amys, "own.jpg", 5_000)
        #expect(try await identifiers() == 1)

        // When
        let dropped = await PromiseExpectations.value(of: amys.erase(account: "amy"))

        // Then: Amy's two waiting uploads dropped, her rows and the API's id gone, her bytes gone
        // but the bytes the other photo keeps
        #expect(dropped == 2)
        let states = await PromiseExpectations.value(
            of: when(fulfilled: [uploaded, same, own, shared].map { nobodys.state(of: $0.id) }))
        #expect(states == [.unknown, .unknown, .unknown, .waiting])
        #expect(try await identifiers() == 0)
        #expect([uploaded, own, shared].map { nobodys.keptFile(of: $0) != nil } == [false, false, true])
        #expect(await PromiseExpectations.value(of: nobodys.outbox.entries())?.map(\.localID) == [shared.id])
    }

    /// How many of the API's upload ids the file maps.
    func identifiers() async throws -> Int? {
        let count = await PromiseExpectations.value(
            of: try Database(at: base.databaseFile).read { connection in
                try connection.scalar("SELECT count(*) FROM outbox_identifiers WHERE feature = 'attachments'")
            })
        guard case .integer(let value)? = count else { return nil }
        return Int(value)
    }
}
