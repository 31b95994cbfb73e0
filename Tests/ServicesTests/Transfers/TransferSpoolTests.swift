import Foundation
import PromiseMVPTesting
import Testing

@testable import Services

/// `TransferSpool`: a request's three files, written whole, and names that stay in the folder.
@Suite("Transfer spool")
struct TransferSpoolTests {
    let folder = TemporaryFolder("TransferSpoolTests")
    var spool: TransferSpool { TransferSpool(folder: folder.file("Transfers")) }
    let request = SpooledRequest(
        method: "POST", url: URL(fileURLWithPath: "/notes"), headers: ["Idempotency-Key": "k"])

    @Test("a request waits, then is answered, then is missing once removed")
    func states() throws {
        // Given
        let name = try spool.write(request, body: Data("{}".utf8))
        // Then it waits, with its body in a file
        #expect(spool.state(of: name) == .waiting && spool.waiting() == [name])
        #expect(try Data(contentsOf: try #require(spool.request(name)).body) == Data("{}".utf8))
        // When answered
        let answer = SpooledAnswer(status: 201, headers: ["ETag": "\"1\""], body: Data("{}".utf8))
        try spool.record(answer, for: name)
        // Then
        #expect(spool.state(of: name) == .answered(answer) && spool.waiting().isEmpty)
        #expect(answer.headers == ["etag": "\"1\""])
        // When removed
        spool.remove(name)
        // Then
        #expect(spool.state(of: name) == .missing && spool.all().isEmpty)
    }

    @Test("a request whose body is gone reads as missing and is not listed: its sender takes it back")
    func bodyGone() throws {
        // Given
        let name = try spool.write(request, body: Data("{}".utf8))
        // When
        try FileManager.default.removeItem(at: spool.url(name, "body"))
        // Then
        #expect(spool.state(of: name) == .missing && spool.waiting().isEmpty && spool.request(name) == nil)
    }

    @Test("a damaged answer reads as missing, so its sender takes the request back")
    func damagedAnswer() throws {
        // Given
        let name = try spool.write(request, body: nil)
        // When
        try Data("not json".utf8).write(to: spool.url(name, "answer"))
        // Then
        #expect(spool.state(of: name) == .missing)
    }

    @Test("a name that would reach out of the folder is never read or removed")
    func namesStayInTheFolder() throws {
        // Given: the spool's folder, and a request's files beside it
        try spool.write(request, body: nil)
        let outside = try spool.write(request, body: nil, name: "outside")
        for suffix in ["request", "body"] {
            try FileManager.default.moveItem(
                at: spool.url(outside, suffix), to: folder.file("outside.\(suffix)"))
        }
        try SpooledAnswer(status: 200, headers: [:], body: Data()).write(to: folder.file("outside.answer"))
        // When
        spool.remove("../outside")
        // Then
        #expect(spool.state(of: "../outside") == .missing && spool.request("../outside") == nil)
        #expect(FileManager.default.fileExists(atPath: folder.file("outside.request").path))
        #expect(FileManager.default.fileExists(atPath: folder.file("outside.answer").path))
    }

    @Test("names are letters, digits and dashes, at most 64")
    func names() {
        // Given / When / Then
        for name in ["0", "9", "A", "Z", "a", "z", "-", "a-Z9", String(repeating: "f", count: 64)] {
            #expect(TransferSpool.isName(name), "\(name)")
        }
        for name in [
            "", "a/b", "a.b", "..", "é", "a b", "/", ":", "@", "[", "`", "{",
            String(repeating: "f", count: 65),
        ] {
            #expect(!TransferSpool.isName(name), "\(name)")
        }
    }

    @Test("a request that cannot be written whole leaves nothing behind")
    func failedWriteLeavesNothing() throws {
        // Given: a folder in the place of the request's file, so the last rename fails
        try spool.write(request, body: nil)
        try FileManager.default.createDirectory(
            at: spool.url("taken", "request"), withIntermediateDirectories: true)
        try Data("x".utf8).write(to: spool.url("taken", "request").appendingPathComponent("x"))
        // When
        #expect(throws: (any Error).self) { try spool.write(request, body: Data("{}".utf8), name: "taken") }
        // Then: its body is gone too
        #expect(!FileManager.default.fileExists(atPath: spool.url("taken", "body").path))
    }
}

extension SpooledAnswer {
    /// Writes the answer as the spool does, to `url`.
    func write(to url: URL) throws {
        try JSONEncoder().encode(self).write(to: url)
    }
}
