import Foundation
import Testing

@testable import Services

/// `text/event-stream` read as WHATWG HTML's "Server-sent events" interprets it, fed in chunks cut
/// anywhere, and bounded.
@Suite("Event stream parser")
struct EventStreamParserTests {
    /// What `text` says, fed in chunks of `size` bytes.
    static func read(
        _ text: String, chunksOf size: Int = .max, parser: EventStreamParser = EventStreamParser()
    )
        throws -> [EventStreamParser.Output]
    {
        var parser = parser
        let bytes = Array(text.utf8)
        return try stride(from: 0, to: bytes.count, by: max(1, min(size, bytes.count))).flatMap {
            try parser.feed(bytes[$0..<min($0 + size, bytes.count)])
        }
    }

    static func events(_ outputs: [EventStreamParser.Output]) -> [ServerSentEvent] {
        outputs.compactMap { if case .event(let event) = $0 { event } else { nil } }
    }

    @Test(
        "data lines join with line feeds; one leading space goes; a comment is a keep-alive",
        arguments: [1, 2, 7, 1000])
    func dataLinesAndComments(chunk: Int) throws {
        // When
        let outputs = try Self.read(
            ": keep-alive\n\ndata: YHOO\ndata: +2\ndata:  10\n\ndata\n\ndata\ndata\n\ndata: cut off",
            chunksOf: chunk)

        // Then
        #expect(outputs.first == .comment)
        #expect(Self.events(outputs).map(\.data) == ["YHOO\n+2\n 10", "", "\n"])
    }

    @Test(
        "CR LF, LF and CR each end a line, a CR LF cut between two chunks included", arguments: [1, 3, 1000])
    func lineEnds(chunk: Int) throws {
        // When
        let events = Self.events(
            try Self.read("data: a\r\ndata: b\rdata: c\n\r\n\rdata: d\r\r", chunksOf: chunk))

        // Then
        #expect(events.map(\.data) == ["a\nb\nc", "d"])
    }

    @Test("the last event ID is the last id received, kept across events until another; NUL is refused")
    func lastEventID() throws {
        // When
        let events = Self.events(
            try Self.read(
                "id: 1\ndata: first\n\ndata: second\n\nid: 3\u{0}x\ndata: third\n\nid\ndata: fourth\n\nid: 5\n\n"
            ))

        // Then
        #expect(events.map(\.lastEventID) == ["1", "1", "1", ""])
    }

    @Test("an id without data changes the last event ID at its blank line, not before")
    func idWithoutData() throws {
        // Given
        var parser = EventStreamParser()

        // When
        _ = try parser.feed(Array("id: 7\n".utf8))
        let before = parser.lastEventID
        _ = try parser.feed(Array("\n".utf8))

        // Then
        #expect(before == "")
        #expect(parser.lastEventID == "7")
    }

    @Test("event names the type, message by default; retry takes digits only; other fields are ignored")
    func typeRetryAndOthers() throws {
        // When
        let outputs = try Self.read(
            "\u{FEFF}event: orders\ndata: {}\n\nretry: 2500\nretry: 3s\nretry:\nretry: 90\nfoo: bar\ndata: x\n\n"
        )

        // Then: every digit, 0 to 9, taken
        #expect(
            outputs == [
                .event(ServerSentEvent(type: "orders", data: "{}")), .retry(milliseconds: 2500),
                .retry(milliseconds: 90), .event(ServerSentEvent(data: "x")),
            ])
    }

    @Test("a line longer than the bound, or an event's data larger than its bound, ends the stream")
    func bounds() throws {
        // Given
        let small = EventStreamParser(maximumLineBytes: 16, maximumEventBytes: 20)

        // Then
        #expect(throws: EventStreamError.lineTooLong(limit: 16)) {
            try Self.read("data: 0123456789abc\n", chunksOf: 4, parser: small)
        }
        #expect(throws: EventStreamError.eventTooLarge(limit: 20)) {
            try Self.read("data: 0123456789\ndata: 0123456789\n", parser: small)
        }
        #expect(throws: Never.self) { try Self.read("data: 012345678\n\n", parser: small) }
        // Exactly at each bound: a line of 16 bytes, data of 20 (10, the line feed joining, 9)
        let atBounds = try Self.read("data: 0123456789\ndata: 012345678\n\n", parser: small)
        #expect(Self.events(atBounds).map(\.data) == ["0123456789\n012345678"])
        #expect(throws: EventStreamError.lineTooLong(limit: 64 << 10)) {
            try Self.read(String(repeating: "x", count: (64 << 10) + 1), chunksOf: 4096)
        }
    }
}
