/// One event of a Server-Sent Events stream (`text/event-stream`, WHATWG HTML, "Server-sent
/// events"), as ``EventStream`` hands it on: what the lines before a blank line said.
public struct ServerSentEvent: Sendable, Equatable {
    /// The stream's last event ID when the event was dispatched: the last `id:` line received,
    /// in this event or an earlier one (what a reconnection sends as `Last-Event-ID`).
    public var lastEventID: String
    /// The event's type (`event:`), `message` when it named none.
    public var type: String
    /// The event's data (`data:` lines, joined with line feeds).
    public var data: String

    /// Makes an event.
    ///
    /// - Parameters:
    ///   - lastEventID: The stream's last event ID.
    ///   - type: The event's type; `message` by default.
    ///   - data: The event's data.
    public init(lastEventID: String = "", type: String = "message", data: String) {
        (self.lastEventID, self.type, self.data) = (lastEventID, type, data)
    }
}
