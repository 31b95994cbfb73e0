import Foundation
import PromiseMVPTesting
import Testing

@testable import OfflineKit
@testable import Services

/// Conflicts field by field: which fields both sides changed, and a rule for one field (a stamp
/// every edit changes) that leaves the others to the field-by-field merge.
@Suite("OfflineCollection conflicts, field by field")
struct OfflineCollectionFieldConflictTests {
    struct Chore: OfflineResource, Equatable {
        var id: String?
        var version: String?
        var title: String
        var note: String
        var stamp: String
    }

    let folder = TemporaryFolder("OfflineCollectionFieldConflictTests")
    let api = TestResourceAPI(
        collection: "chores", resources: [["id": "c1", "title": "Milk", "note": "", "stamp": "1"]])

    func chores(_ server: TestHTTPServer, online: Bool) throws -> OfflineCollection<Chore> {
        OfflineCollection<Chore>(
            database: try Database(at: folder.file("chores.sqlite")), collection: "chores",
            client: APIClient(baseURL: server.baseURL, timeout: 30, retry: .never),
            reachability: online ? AssumeReachable() : OfflineCollectionTests.Offline())
    }

    /// Given: the list loaded; here the title changed offline, there the note: each edit moves the
    /// stamp.
    func editsOfDifferentFields(_ server: TestHTTPServer, myStamp: String = "2") async throws {
        _ = await PromiseExpectations.value(of: try chores(server, online: true).list())
        _ = await PromiseExpectations.value(
            of: try chores(server, online: false).update(
                Chore(id: "c1", version: "1", title: "Oat milk", note: "", stamp: myStamp)))
        api.edit("c1", ["note": "done", "stamp": "3"])
    }

    @Test("a conflict tells the fields both sides changed from those one side changed")
    func fieldsChangedOnBothSides() async throws {
        // Given
        let server = try TestHTTPServer(responder: api.respond)
        defer { server.stop() }
        try await editsOfDifferentFields(server)
        let chores = try chores(server, online: true)

        // When: synced without a rule for the stamp
        _ = await PromiseExpectations.value(of: chores.sync())
        let conflict = try #require(await PromiseExpectations.value(of: chores.conflict(id: "c1")) ?? nil)

        // Then: three fields differ; only the stamp was changed on both sides
        #expect(conflict.fields == ["note", "stamp", "title"])
        #expect(conflict.changedOnBothSides == ["stamp"])
    }

    @Test(
        "a rule for the stamp decides it, and the other fields merge: no conflict",
        arguments: ["2", "4"])
    func fieldRuleLeavesTheRestToTheMerge(myStamp: String) async throws {
        // Given: my stamp earlier than theirs (3), or later
        let server = try TestHTTPServer(responder: api.respond)
        defer { server.stop() }
        try await editsOfDifferentFields(server, myStamp: myStamp)
        let chores = try chores(server, online: true).merging(\.stamp) { mine, theirs in max(mine, theirs) }

        // When
        let report = await PromiseExpectations.value(of: chores.sync())

        // Then: merged and sent: my title, their note, the later stamp
        #expect(report?.merged.count == 1 && report?.conflicted.isEmpty == true)
        #expect(api.field("title", of: "c1") == "Oat milk")
        #expect(api.field("note", of: "c1") == "done")
        #expect(api.field("stamp", of: "c1") == max(myStamp, "3"))
    }

    @Test("two field rules both apply: each decides its field, the rest merges")
    func twoFieldRulesBothApply() async throws {
        // Given: both sides changed the title and the stamp; only they changed the note
        let server = try TestHTTPServer(responder: api.respond)
        defer { server.stop() }
        try await editsOfDifferentFields(server)
        api.edit("c1", ["title": "Soy milk"])
        let chores = try chores(server, online: true)
            .merging(\.stamp) { mine, theirs in max(mine, theirs) }
            .merging(\.title) { mine, theirs in "\(mine) or \(theirs)" }

        // When
        let report = await PromiseExpectations.value(of: chores.sync())

        // Then
        #expect(
            report?.merged.count == 1 && report?.conflicted.isEmpty == true, "\(String(describing: report))")
        #expect(api.field("title", of: "c1") == "Oat milk or Soy milk")
        #expect(api.field("stamp", of: "c1") == "3" && api.field("note", of: "c1") == "done")
    }

    @Test("a field rule is given mine first, then theirs")
    func fieldRuleTakesMineThenTheirs() async throws {
        // Given: my stamp 2, theirs 3
        let server = try TestHTTPServer(responder: api.respond)
        defer { server.stop() }
        try await editsOfDifferentFields(server)
        let chores = try chores(server, online: true).merging(\.stamp) { mine, theirs in
            "\(mine) over \(theirs)"
        }

        // When
        _ = await PromiseExpectations.value(of: chores.sync())

        // Then
        #expect(api.field("stamp", of: "c1") == "2 over 3")
    }

    @Test("a rule for the whole resource goes before the field rules; nil from it leaves them the conflict")
    func wholeRuleBeforeFieldRules() async throws {
        // Given: a rule for the whole resource that settles only conflicts of "Oat milk"
        let server = try TestHTTPServer(responder: api.respond)
        defer { server.stop() }
        try await editsOfDifferentFields(server)
        let chores = try chores(server, online: true)
            .merging { _, mine, theirs in
                mine.title == "Oat milk"
                    ? Chore(id: nil, version: nil, title: "Both", note: theirs.note, stamp: "9") : nil
            }
            .merging(\.stamp) { mine, theirs in max(mine, theirs) }

        // When
        let report = await PromiseExpectations.value(of: chores.sync())

        // Then: the whole rule's value, not the field-by-field merge's
        #expect(report?.merged.count == 1)
        #expect(api.field("title", of: "c1") == "Both")
        #expect(api.field("stamp", of: "c1") == "9")
    }

    @Test(
        "with or without a field rule, the merge keeps the fields the model does not know",
        arguments: [false, true])
    func mergeKeepsUnknownFields(withRule: Bool) async throws {
        // Given: the API's chore has a colour the model does not know; both sides moved the stamp
        // to the same value, so the edits merge without a rule too
        api.edit("c1", ["colour": "blue"])
        let server = try TestHTTPServer(responder: api.respond)
        defer { server.stop() }
        try await editsOfDifferentFields(server, myStamp: "3")
        let plain = try chores(server, online: true)
        let chores = withRule ? plain.merging(\.stamp) { mine, theirs in max(mine, theirs) } : plain

        // When
        let report = await PromiseExpectations.value(of: chores.sync())

        // Then
        #expect(report?.merged.count == 1)
        #expect(api.field("title", of: "c1") == "Oat milk")
        #expect(api.field("colour", of: "c1") == "blue")
    }

    @Test("a rule for the whole resource keeps the fields the model does not know, as the API has them")
    func wholeRuleKeepsUnknownFields() async throws {
        // Given: the API's chore has a colour the model does not know
        api.edit("c1", ["colour": "blue"])
        let server = try TestHTTPServer(responder: api.respond)
        defer { server.stop() }
        try await editsOfDifferentFields(server)
        let chores = try chores(server, online: true)
            .merging { _, mine, theirs in
                Chore(id: nil, version: nil, title: mine.title, note: theirs.note, stamp: "9")
            }

        // When
        let report = await PromiseExpectations.value(of: chores.sync())

        // Then
        #expect(report?.merged.count == 1)
        #expect(api.field("title", of: "c1") == "Oat milk" && api.field("stamp", of: "c1") == "9")
        #expect(api.field("colour", of: "c1") == "blue")
    }
}
