public import Foundation
import Promises

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A Server-Sent Events stream from the API (`text/event-stream`, WHATWG HTML "Server-sent
/// events"), kept open and reopened the standard way: each event is handed on as it arrives.
///
/// - **Reconnecting**: after the server ends the stream, after the time its last `retry:` asked
///   (3 s until it asks); after a failure, with a backoff that doubles from that time up to
///   ``maximumDelay``, with jitter (half of it to all of it, so that many devices do not come
///   back at once). Each reconnection sends `Last-Event-ID`: the last event ID received, not the
///   first.
/// - **Silence**: a stream that sent nothing (not even a comment) for twice ``keepAlive`` is
///   dropped and reopened, as a failure.
/// - **Sign-in**: the client's credentials sign the request; a `401` is answered by one refresh of
///   the token and a new attempt, as every request of the client is.
/// - **No stream**: `404`, `405`, `501` (or `204`, "stop reconnecting") mean the API has none:
///   ``State/unsupported(status:)``, and no further attempt until the stream is started again
///   (at the app's next launch).
/// - **Bounded**: a line over 64 KiB or an event over 1 MiB drops the stream, as a failure.
///
/// Runs until ``stop()``; each connection is a session of its own made with the client's
/// configuration, on Apple platforms and Linux alike.
public final class EventStream: Sendable {
    /// Where the stream stands.
    public enum State: Sendable, Equatable {
        /// Not started, or stopped.
        case stopped
        /// Asking for the stream.
        case connecting
        /// Open: events arrive as the API sends them.
        case live
        /// Down, for `reason`: asked again in `seconds`.
        case waiting(seconds: TimeInterval, reason: String)
        /// The API has no stream (it answered `status`): not asked again until started again.
        case unsupported(status: Int)
    }

    /// The path of the stream, relative to the client's base URL.
    public let path: String
    /// The keep-alive the API promises, in seconds: a stream silent for twice this is dropped.
    public let keepAlive: TimeInterval
    /// The longest wait between two attempts after failures, in seconds.
    public let maximumDelay: TimeInterval
    let client: APIClient
    let clock: any SyncClock
    /// A number in `0..<1` for each wait's jitter.
    let jitter: @Sendable () -> Double
    private let machine = Locked(Machine())
    /// How long a connection may stay silent before URLSession would end it: a week, so that
    /// silence is judged by ``keepAlive`` on the stream's clock alone.
    static let idle: TimeInterval = 7 * 86_400

    /// Everything that changes, behind one lock. `generation` names the connection under way:
    /// a callback of an older one (stopped, dropped, replaced) finds another and does nothing.
    private struct Machine {
        var generation = 0
        var running = false
        var state = State.stopped
        var lastEventID = ""
        /// The server's `retry:`, in seconds.
        var retry: TimeInterval = 3
        var failures = 0
        var watchdog: ScheduledWork?
        var reconnect: ScheduledWork?
        var open: (session: URLSession, task: URLSessionDataTask)?
        var onEvent: (@Sendable (ServerSentEvent) -> Void)?
        var onState: (@Sendable (State) -> Void)?
        /// The connection opened with a token refreshed after a `401`: a `401` on it is a
        /// failure, waited out as any, not another refresh at once.
        var openedAfterRefresh: Int?
        /// Connections begun: a wait announced after the next one began is not announced.
        var attempts = 0
    }

    /// Where ``State`` changes are told, in the order they happened.
    private let callbacks = DispatchQueue(label: "EventStream")

    /// Makes the stream; nothing is asked before ``start(lastEventID:_:state:)``.
    ///
    /// - Parameters:
    ///   - client: The API's client: its base URL, credentials and session configuration.
    ///   - path: The stream's path; `events` by default.
    ///   - clock: What times the waits and the silence; the system's by default.
    ///   - keepAlive: The API's keep-alive interval, in seconds; 15 by default.
    ///   - maximumDelay: The longest wait after failures, in seconds; 300 by default.
    ///   - jitter: A number in `0..<1` for each wait after a failure; random by default.
    public init(
        client: APIClient, path: String = "events", clock: any SyncClock = .system,
        keepAlive: TimeInterval = 15,
        maximumDelay: TimeInterval = 300,
        jitter: @escaping @Sendable () -> Double = { Double.random(in: 0..<1) }
    ) {
        (self.client, self.path, self.clock, self.keepAlive) = (client, path, clock, max(0.001, keepAlive))
        (self.maximumDelay, self.jitter) = (maximumDelay, jitter)
    }

    /// Opens the stream and keeps it open until ``stop()``.
    ///
    /// - Parameters:
    ///   - lastEventID: Where a stream kept from an earlier run left off, sent as `Last-Event-ID`.
    ///   - onEvent: Gets each event, on a queue of the stream's.
    ///   - onState: Gets each change of ``State``.
    public func start(
        lastEventID: String = "", _ onEvent: @escaping @Sendable (ServerSentEvent) -> Void,
        state onState: @escaping @Sendable (State) -> Void = { _ in }
    ) {
        let generation = machine.withLock { machine -> Int? in
            guard !machine.running else { return nil }
            machine.running = true
            (machine.onEvent, machine.onState) = (onEvent, onState)
            if !lastEventID.isEmpty { machine.lastEventID = lastEventID }
            machine.failures = 0
            return machine.generation
        }
        if let generation { connect(generation) }
    }

    /// Closes the stream and asks no more.
    public func stop() {
        let ended = machine.withLock { machine -> (URLSession, URLSessionDataTask)? in
            machine.generation += 1
            machine.running = false
            machine.watchdog?.cancel()
            machine.reconnect?.cancel()
            (machine.watchdog, machine.reconnect) = (nil, nil)
            defer { machine.open = nil }
            return machine.open
        }
        if let (session, task) = ended { Self.close(session, task) }
        publish(.stopped, generation: nil)
    }

    /// The last event ID received, for a later run to start from.
    public var lastEventID: String { machine.withLock { $0.lastEventID } }

    /// Where the stream stands now.
    public var state: State { machine.withLock { $0.state } }

    /// Opens connection `generation`, with a token when the client signs its requests.
    private func connect(_ generation: Int) {
        machine.withLock { $0.attempts += 1 }
        guard publish(.connecting, generation: generation) else { return }
        guard let credentials = client.credentials else { return open(generation, token: nil) }
        credentials.accessToken().done(on: .inline) { [self] token in
            open(generation, token: token)
        }.catch(on: .inline, policy: .allErrors) { [self] error in
            failed(generation, "no sign-in: \(ServiceRequestError(error).userMessage)")
        }
    }

    private func open(_ generation: Int, token: String?) {
        var request = URLRequest(url: client.url(for: path), timeoutInterval: Self.idle)
        request.setValue("text/event-stream", forHTTPHeaderField: "Accept")
        request.setValue("no-cache", forHTTPHeaderField: "Cache-Control")
        if let token { request.setValue("Bearer \(token)", forHTTPHeaderField: "Authorization") }
        // The last event ID received, not the first: what the server goes on from.
        let lastEventID = machine.withLock { $0.lastEventID }
        if !lastEventID.isEmpty { request.setValue(lastEventID, forHTTPHeaderField: "Last-Event-ID") }
        let delegate = Delegate(stream: self, generation: generation, token: token, lastEventID: lastEventID)
        let session = client.transfers.session(delegate: delegate, idle: Self.idle)
        let task = session.dataTask(with: request)
        let started = machine.withLock { machine -> Bool in
            guard machine.generation == generation, machine.running else { return false }
            machine.open = (session, task)
            return true
        }
        guard started else { return session.invalidateAndCancel() }
        heard(generation)
        task.resume()
    }

    /// Something arrived on connection `generation` (or it opened): the silence starts again.
    fileprivate func heard(_ generation: Int) {
        let silence = 2 * keepAlive
        let watchdog = clock.schedule(after: silence) { [self] in
            drop(generation, "nothing heard for \(Int(silence)) s")
        }
        let kept = machine.withLock { machine -> Bool in
            guard machine.generation == generation, machine.running else { return false }
            machine.watchdog?.cancel()
            machine.watchdog = watchdog
            return true
        }
        if !kept { watchdog.cancel() }
    }

    /// The answer's head: the stream is open, refused, or not there.
    fileprivate func answered(_ generation: Int, _ response: HTTPURLResponse, token: String?) -> Bool {
        let status = response.statusCode
        let type = response.value(forHTTPHeaderField: "Content-Type")?.lowercased() ?? ""
        switch status {
        case 200 where type.hasPrefix("text/event-stream"):
            let live = machine.withLock { machine -> Bool in
                guard machine.generation == generation else { return false }
                machine.failures = 0
                return true
            }
            if live { publish(.live, generation: generation) }
            return live
        case 401:
            signIn(generation, after: token)
        case 204, 404, 405, 501:
            unsupported(generation, status)
        case 200:
            drop(generation, "the answer is not an event stream (\(type))")
        default:
            drop(generation, "HTTP \(status)")
        }
        return false
    }

    /// A `401`: the token is refreshed and the stream asked again at once; a `401` to the token
    /// just refreshed is a failure (so an API that refuses every token costs one refresh per
    /// wait, never a loop of refreshes).
    private func signIn(_ generation: Int, after token: String?) {
        let first = machine.withLock { $0.generation == generation && $0.openedAfterRefresh != generation }
        guard first, let credentials = client.credentials, let token else {
            return drop(generation, "the sign-in was refused (401)")
        }
        let next = close(generation)
        credentials.refresh(replacing: token).done(on: .inline) { [self] fresh in
            guard let next else { return }
            machine.withLock { $0.openedAfterRefresh = next }
            open(next, token: fresh)
        }.catch(on: .inline, policy: .allErrors) { [self] error in
            if let next { failed(next, "the sign-in was refused: \(ServiceRequestError(error).userMessage)") }
        }
    }

    /// Events and fields read on connection `generation`.
    fileprivate func received(_ generation: Int, _ outputs: [EventStreamParser.Output], lastEventID: String) {
        let onEvent = machine.withLock { machine -> (@Sendable (ServerSentEvent) -> Void)? in
            guard machine.generation == generation else { return nil }
            machine.lastEventID = lastEventID
            for case .retry(let milliseconds) in outputs {
                machine.retry = Double(min(milliseconds, 86_400_000)) / 1_000
            }
            return machine.onEvent
        }
        guard let onEvent else { return }
        for case .event(let event) in outputs { onEvent(event) }
    }

    /// Connection `generation` ended: by the server (`error` nil), reopened after its retry time;
    /// otherwise a failure.
    fileprivate func ended(_ generation: Int, _ error: (any Error)?) {
        guard let error else {
            guard let next = close(generation) else { return }
            let wait = machine.withLock { $0.retry }
            return schedule(next, after: wait, "the API ended the stream")
        }
        failed(generation, ServiceRequestError(error).userMessage)
    }

    /// Drops connection `generation` for `reason`, a failure.
    fileprivate func drop(_ generation: Int, _ reason: String) {
        failed(generation, reason)
    }

    /// Connection `generation` failed: closed, and asked again after the backoff.
    private func failed(_ generation: Int, _ reason: String) {
        let wait = machine.withLock { machine -> TimeInterval? in
            guard machine.generation == generation else { return nil }
            machine.failures += 1
            let doubled = machine.retry * pow(2, Double(min(machine.failures - 1, 30)))
            let base = min(maximumDelay, max(machine.retry, doubled))
            return base / 2 + base / 2 * min(max(jitter(), 0), 1)
        }
        guard let wait, let next = close(generation) else { return }
        schedule(next, after: wait, reason)
    }

    /// The API has no stream: closed, and not asked again until started again.
    private func unsupported(_ generation: Int, _ status: Int) {
        guard let next = close(generation) else { return }
        machine.withLock { $0.running = false }
        publish(.unsupported(status: status), generation: next)
    }

    /// Closes connection `generation`, and gives the number of the next, or `nil` when it is not
    /// the current one any more.
    private func close(_ generation: Int) -> Int? {
        let closed = machine.withLock { machine -> (next: Int, open: (URLSession, URLSessionDataTask)?)? in
            guard machine.generation == generation else { return nil }
            machine.generation += 1
            machine.watchdog?.cancel()
            machine.watchdog = nil
            defer { machine.open = nil }
            return (machine.generation, machine.open)
        }
        if let (session, task) = closed?.open { Self.close(session, task) }
        return closed?.next
    }

    /// Connects again after `seconds`; the wait is announced once the attempt is scheduled, so
    /// that whoever moves the clock on hearing it moves it past the attempt.
    private func schedule(_ generation: Int, after seconds: TimeInterval, _ reason: String) {
        let attempt = machine.withLock { $0.attempts }
        let work = clock.schedule(after: seconds) { [self] in connect(generation) }
        let kept = machine.withLock { machine -> Bool in
            guard machine.generation == generation, machine.running else { return false }
            machine.reconnect = work
            if machine.attempts == attempt { announce(.waiting(seconds: seconds, reason: reason), &machine) }
            return true
        }
        if !kept { work.cancel() }
    }

    /// Publishes `state` if connection `generation` is still the current one (any, for `nil`).
    @discardableResult
    private func publish(_ state: State, generation: Int?) -> Bool {
        machine.withLock { machine in
            guard generation == nil || machine.generation == generation else { return false }
            announce(state, &machine)
            return true
        }
    }

    /// Makes `state` the stream's, and tells it, in order, unless it was already.
    private func announce(_ state: State, _ machine: inout Machine) {
        guard machine.state != state else { return }
        machine.state = state
        if let onState = machine.onState { callbacks.async { onState(state) } }
    }

    /// Stops a connection for good: cancelled, and its session ended. (Not suspended first, as
    /// ``BoundedTransfers`` does mid-body: Linux's FoundationNetworking stops the process when a
    /// task that already ended is suspended. What still arrives on Linux after the cancel is
    /// ignored: the connection is no longer the current one.)
    private static func close(_ session: URLSession, _ task: URLSessionDataTask) {
        task.cancel()
        session.invalidateAndCancel()
    }
}

extension EventStream {
    /// One connection's delegate: reads its body as it arrives and hands it to the stream.
    final class Delegate: NSObject, URLSessionDataDelegate, Sendable {
        let stream: EventStream
        let generation: Int
        let token: String?
        private let parser: Locked<EventStreamParser>

        init(stream: EventStream, generation: Int, token: String?, lastEventID: String) {
            (self.stream, self.generation, self.token) = (stream, generation, token)
            parser = Locked(EventStreamParser(lastEventID: lastEventID))
        }

        func urlSession(
            _ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
            completionHandler: @escaping (URLSession.ResponseDisposition) -> Void
        ) {
            guard let http = response as? HTTPURLResponse else {
                stream.drop(generation, "the answer is not HTTP")
                return completionHandler(.cancel)
            }
            stream.heard(generation)
            completionHandler(stream.answered(generation, http, token: token) ? .allow : .cancel)
        }

        func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
            // A chunk of a connection no longer current is read, then dropped by the stream,
            // which checks the generation of everything a connection hands it (one rule, there).
            stream.heard(generation)
            let read = parser.withLock { parser -> Result<([EventStreamParser.Output], String), any Error> in
                Result { (try parser.feed(data), parser.lastEventID) }
            }
            switch read {
            case .success(let (outputs, lastEventID)):
                stream.received(generation, outputs, lastEventID: lastEventID)
            case .failure(let error):
                stream.drop(generation, "\(error)")
            }
        }

        func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?)
        {
            stream.ended(generation, error)
        }
    }
}
