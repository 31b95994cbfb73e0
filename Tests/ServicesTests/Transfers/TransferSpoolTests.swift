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
        // Given: a file beside the folder
        try FileManager.default.createDirectory(at: folder.url, withIntermediateDirectories: true)
        try Data("keep".utf8).write(to: folder.file("outside.request"))
        // When
        spool.remove("../outside")
        // Then
        #expect(spool.state(of: "../outside") == .missing && spool.request("../outside") == nil)
        #expect(FileManager.default.fileExists(atPath: folder.file("outside.request").path))
    }
}
