import Foundation

/// Reads a `text/event-stream` body as it arrives, chunk by chunk, as WHATWG HTML's "Server-sent
/// events" interprets it: lines end with CR LF, LF or CR (a CR at the end of one chunk and an LF
/// at the start of the next are one end); a leading byte order mark is dropped; `:` starts a
/// comment; `event`, `data`, `id` (unless it holds NUL) and `retry` (digits only) are fields,
/// others are ignored; a blank line dispatches the event, unless it has no data.
///
/// Bounded: a line longer than ``maximumLineBytes`` or an event whose data grows past
/// ``maximumEventBytes`` throws ``EventStreamError``, and the stream is to be dropped, so memory
/// stays bounded whatever a server sends.
struct EventStreamParser {
    /// What the stream said, in order.
    enum Output: Equatable {
        /// An event, dispatched by a blank line.
        case event(ServerSentEvent)
        /// A `retry:` field: how long to wait before reconnecting, in milliseconds.
        case retry(milliseconds: Int)
        /// A comment line, such as a server's keep-alive.
        case comment
    }

    static let standardLineBytes = 64 << 10
    static let standardEventBytes = 1 << 20

    let maximumLineBytes: Int
    let maximumEventBytes: Int
    /// The stream's last event ID, set when an event is dispatched (by a blank line) from the
    /// last `id:` received, and kept across events, as the standard says.
    private(set) var lastEventID = ""
    /// The last `id:` received; it becomes ``lastEventID`` at the next blank line.
    private var idBuffer = ""
    private var line: [UInt8] = []
    private var data: [UInt8] = []
    private var hasData = false
    private var type = ""
    /// The last byte was a CR: an LF right after it ends nothing more.
    private var afterCR = false
    /// Nothing read yet: a byte order mark there is dropped.
    private var atStart = true

    /// Makes a parser; `lastEventID` is the stream's, from the connection before (it stays the
    /// last event ID until this connection's first `id:` and blank line replace it).
    init(
        lastEventID: String = "", maximumLineBytes: Int = standardLineBytes,
        maximumEventBytes: Int = standardEventBytes
    ) {
        (self.maximumLineBytes, self.maximumEventBytes) = (maximumLineBytes, maximumEventBytes)
        (self.lastEventID, idBuffer) = (lastEventID, lastEventID)
    }

    /// Reads `bytes`, the next part of the body.
    ///
    /// - Returns: What the lines they complete said.
    /// - Throws: ``EventStreamError`` when a line or an event is over its bound.
    mutating func feed(_ bytes: some Sequence<UInt8>) throws -> [Output] {
        var outputs: [Output] = []
        for byte in bytes {
            switch byte {
            case 0x0A where afterCR:
                afterCR = false
            case 0x0A, 0x0D:
                afterCR = byte == 0x0D
                if let output = try endLine() { outputs.append(output) }
            default:
                afterCR = false
                line.append(byte)
                guard line.count <= maximumLineBytes else {
                    throw EventStreamError.lineTooLong(limit: maximumLineBytes)
                }
            }
        }
        return outputs
    }

    /// Interprets the line read, then starts the next.
    private mutating func endLine() throws -> Output? {
        defer { line.removeAll(keepingCapacity: true) }
        if atStart {
            atStart = false
            if line.starts(with: [0xEF, 0xBB, 0xBF]) { line.removeFirst(3) }
        }
        guard !line.isEmpty else { return dispatch() }
        if line[0] == UInt8(ascii: ":") { return .comment }
        let colon = line.firstIndex(of: UInt8(ascii: ":"))
        let name = String(decoding: line[..<(colon ?? line.endIndex)], as: UTF8.self)
        var value = colon.map { line[line.index(after: $0)...] } ?? []
        if value.first == UInt8(ascii: " ") { value = value.dropFirst() }
        switch name {
        case "event":
            type = String(decoding: value, as: UTF8.self)
        case "data":
            if hasData { data.append(0x0A) }
            data.append(contentsOf: value)
            hasData = true
            guard data.count <= maximumEventBytes else {
                throw EventStreamError.eventTooLarge(limit: maximumEventBytes)
            }
        case "id" where !value.contains(0):
            idBuffer = String(decoding: value, as: UTF8.self)
        case "retry" where !value.isEmpty && value.allSatisfy({ (0x30...0x39).contains($0) }):
            // Digits only; a number too large for an Int is as good as "never soon".
            return .retry(milliseconds: Int(String(decoding: value, as: UTF8.self)) ?? Int.max)
        default:
            break
        }
        return nil
    }

    /// A blank line: the event read so far, if it has data; the buffers start again either way.
    private mutating func dispatch() -> Output? {
        lastEventID = idBuffer
        defer {
            (data, hasData, type) = ([], false, "")
        }
        guard hasData else { return nil }
        return .event(
            ServerSentEvent(
                lastEventID: lastEventID, type: type.isEmpty ? "message" : type,
                data: String(decoding: data, as: UTF8.self)))
    }
}

/// Why an event stream was dropped.
public enum EventStreamError: Error, Equatable, Sendable {
    /// A line was longer than `limit` bytes.
    case lineTooLong(limit: Int)
    /// An event's data was larger than `limit` bytes.
    case eventTooLarge(limit: Int)
}
