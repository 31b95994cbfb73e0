import Foundation
import PromiseMVPTesting
import Testing

/// The test Server-Sent Events endpoint as a client on the wire sees it: what a client that comes
/// back is sent again, and the waits a test makes on its clients.
@Suite("TestEventSource")
struct TestEventSourceTests {
    @Test("a client back with a Last-Event-ID gets what came after it while the last 1,000 are kept")
    func historyKeptForClientsThatComeBack() async throws {
        // Given: as many events as the source keeps
        let source = TestEventSource()
        let server = try TestHTTPServer(["/events": .eventStream(source)])
        defer { server.stop() }
        for id in 1...1_000 { source.send(id: "\(id)", data: "event \(id)") }

        // When: a client back from the first; then one more event, and clients back from the
        // first again and from the 600th
        let fromFirst = await missedIDs(back: "1", client: 1, of: source, on: server)
        source.send(id: "1001", data: "event 1001")
        let fromFirstAgain = await missedIDs(back: "1", client: 2, of: source, on: server)
        let from600 = await missedIDs(back: "600", client: 3, of: source, on: server)

        // Then: the window moved past the first (a client that far back refreshes instead)
        #expect(fromFirst == (2...1_000).map { "\($0)" })
        #expect(fromFirstAgain == [])
        #expect(from600 == (601...1_001).map { "\($0)" })
        #expect(source.lastEventIDs == ["1", "1", "600"])
    }

    @Test("waiting for clients says whether they came, or left, in time; a drop closes their connections")
    func waitsForClients() async throws {
        // Given: no client yet
        let source = TestEventSource()
        let server = try TestHTTPServer(["/events": .eventStream(source)])
        defer { server.stop() }

        // When: nobody comes; then a client comes and stays, until the source drops it
        let nobody = await source.waitForConnections(1, seconds: 0.1)
        let client = Task {
            await BlockingWork.run {
                RawHTTPConnection.read(request(lastEventID: nil), port: server.port, until: "data: end\n\n")
            }
        }
        let came = await source.waitForConnections(1, seconds: 300)
        let stayed = await source.waitForConnections(atMost: 0, seconds: 0.1)
        let stillThere = source.connections
        source.dropConnections()
        // (Sooner than the raw client gives up on silence, after 600 s, and closes by itself.)
        let left = await source.waitForConnections(atMost: 0, seconds: 300)
        let read = await client.value

        // Then: the client saw its connection closed before any event
        #expect(nobody == false)
        #expect(came && stayed == false && stillThere == 1)
        #expect(left && source.connections == 0)
        #expect(read == nil)
    }

    /// The identifiers of the events the `client`-th client of `source`, back from `lastEventID`,
    /// is sent before the event the test sends once it is connected; `nil` when it got no stream.
    private func missedIDs(
        back lastEventID: String, client: Int, of source: TestEventSource, on server: TestHTTPServer
    ) async -> [String]? {
        let reading = Task {
            await BlockingWork.run {
                RawHTTPConnection.read(
                    request(lastEventID: lastEventID), port: server.port, until: "data: end\n\n")
            }
        }
        guard await source.waitForConnections(client, seconds: 300) else { return nil }
        source.send(data: "end")
        // The head's CR LF pairs are single characters: read the stream after it, by lines.
        guard let answer = await reading.value, let head = answer.range(of: "\r\n\r\n") else { return nil }
        return answer[head.upperBound...].split(separator: "\n").filter { $0.hasPrefix("id: ") }
            .map { String($0.dropFirst(4)) }
    }
}

/// A request for the stream at /events, with `Last-Event-ID` when there is one.
private func request(lastEventID: String?) -> String {
    "GET /events HTTP/1.1\r\nHost: here\r\nAccept: text/event-stream\r\n"
        + (lastEventID.map { "Last-Event-ID: \($0)\r\n" } ?? "") + "\r\n"
}
