import Foundation
public import Promises

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Sends the requests of a ``TransferSpool`` on a session that outlives the app, and writes each
/// answer beside its request, where the app's next sync reads it (`Outbox`'s hand-off).
///
/// On Apple platforms the session is a background `URLSession` named ``identifier``: the system
/// sends the requests while the app is suspended or after it has exited. Make one
/// `BackgroundTransfers` per identifier at launch, call ``resume()`` then and after each hand-off,
/// and wire the app delegate (the article "Changes that keep going" shows it):
///
/// ```swift
/// func application(_ application: UIApplication, handleEventsForBackgroundURLSession identifier: String,
///                  completionHandler: @escaping () -> Void) {
///     _ = transfers.handleEvents(forBackgroundURLSession: identifier, completionHandler: completionHandler)
/// }
/// ```
///
/// On Linux there is no system daemon: a process of its own runs the spool (`demo transfers run`).
///
/// Each request goes as an upload task from its body's file (a background session takes no
/// other), named by its spool name (`taskDescription`), so a relaunched app finds the system's
/// tasks with `getAllTasks` and starts only the requests no task sends. A redirect is not
/// followed (the `3xx` is the answer, as for the app's own writes); a body longer than
/// ``maximumAnswerBytes`` is cut there and read as too large.
public final class BackgroundTransfers: Sendable {
    /// The spool whose requests are sent.
    public let spool: TransferSpool
    /// The background session's identifier, the same at every launch.
    public let identifier: String
    /// The longest answer kept, in bytes.
    public let maximumAnswerBytes: Int
    private let delegate: Delegate
    private let session: URLSession

    /// The longest wait for an answer's next bytes, as the session has it.
    var idleTimeout: TimeInterval { session.configuration.timeoutIntervalForRequest }

    /// Makes the session named `identifier` for `spool`'s requests: at most one per identifier
    /// in a process (a background session's rule).
    ///
    /// - Parameters:
    ///   - spool: The requests to send.
    ///   - identifier: The session's identifier, such as `com.example.shop.transfers`.
    ///   - maximumAnswerBytes: The longest answer kept; 16 MiB by default.
    public convenience init(spool: TransferSpool, identifier: String, maximumAnswerBytes: Int = 16 << 20) {
        self.init(
            spool: spool, identifier: identifier, maximumAnswerBytes: maximumAnswerBytes, idleTimeout: nil)
    }

    /// The same, with `idleTimeout` seconds, when given, as the longest wait for an answer's next
    /// bytes (the session's own, 60 s, otherwise): a test that holds an answer open on a loaded
    /// machine gives a longer one, so that the request it holds does not time out under it.
    init(spool: TransferSpool, identifier: String, maximumAnswerBytes: Int, idleTimeout: TimeInterval?) {
        self.spool = spool
        self.identifier = identifier
        self.maximumAnswerBytes = maximumAnswerBytes
        delegate = Delegate(spool: spool, limit: maximumAnswerBytes)
        let configuration = TransferSessionConfiguration.make(identifier: identifier)
        if let idleTimeout { configuration.timeoutIntervalForRequest = idleTimeout }
        session = URLSession(configuration: configuration, delegate: delegate, delegateQueue: nil)
    }

    /// Starts every request of the spool that waits and that no task of the session sends (a
    /// task the system kept across a relaunch is kept, not started twice).
    ///
    /// - Returns: A promise fulfilled, with how many were answered, once every request found
    ///   waiting has an answer (or a failure) in the spool. On Apple platforms the system may
    ///   finish them after this process has gone; the promise then never settles here.
    public func resume() -> Promise<Int> {
        let (session, spool, delegate) = (session, spool, delegate)
        return Promise { seal in
            session.getAllTasks { tasks in
                // The system's tasks (after a relaunch) and this process's, and which to start:
                // chosen, and the promise registered, in one step, so that no request starts twice
                // and no answer comes between the choice and the registration unseen.
                let system = Set(tasks.compactMap(\.taskDescription))
                let starting = delegate.take(waiting: spool.waiting(), running: system, for: seal)
                let started = starting.compactMap { name -> URLSessionTask? in
                    guard let (request, body) = spool.request(name) else {
                        delegate.finished(name, answered: false)
                        return nil
                    }
                    let task = session.uploadTask(with: request.urlRequest, fromFile: body)
                    task.taskDescription = name
                    return task
                }
                for task in started { task.resume() }
            }
        }
    }

    /// Keeps the completion handler the system gave the app with the session's events, and calls
    /// it once the session has delivered them all (`urlSessionDidFinishEvents`).
    ///
    /// - Parameters:
    ///   - identifier: The session the events are for.
    ///   - completionHandler: The system's handler.
    /// - Returns: Whether the events are this session's; when not, another object's handler.
    public func handleEvents(
        forBackgroundURLSession identifier: String, completionHandler: @escaping @Sendable () -> Void
    ) -> Bool {
        guard identifier == self.identifier else { return false }
        delegate.whenEventsDelivered(completionHandler)
        return true
    }

    /// What the system does once the session's events are delivered (a test calls it): the
    /// delegate's `urlSessionDidFinishEvents(forBackgroundURLSession:)`, which calls the handler
    /// kept by ``handleEvents(forBackgroundURLSession:completionHandler:)``, once.
    func eventsDelivered() {
        #if !os(macOS)
            delegate.urlSessionDidFinishEvents(forBackgroundURLSession: session)
        #else
            delegate.eventsDelivered()
        #endif
    }

    /// Lets the tasks under way finish and gives the session up (a test, or a process that ends).
    public func finish() {
        session.finishTasksAndInvalidate()
    }
}

extension BackgroundTransfers {
    /// The session's delegate: gathers each answer and writes it to the spool.
    final class Delegate: NSObject, URLSessionDataDelegate, Sendable {
        let spool: TransferSpool
        let limit: Int
        private let state = Locked(State())

        struct State: Sendable {
            /// The body received so far, by task.
            var bodies: [Int: Data] = [:]
            /// The tasks whose body went past the limit.
            var cut: Set<Int> = []
            /// The names a caller of `resume()` waits for, and how many of them were answered.
            var awaited: [(names: Set<String>, answered: Int, seal: Seal<Int>)] = []
            /// The requests a task sends now, until its answer is in the spool.
            var sending: Set<String> = []
            /// The system's handler, called once the session's events are delivered.
            var eventsDelivered: (@Sendable () -> Void)?
        }

        init(spool: TransferSpool, limit: Int) {
            self.spool = spool
            self.limit = limit
        }

        /// Of the requests `waiting` in the spool, those no task sends (neither one of `running`,
        /// the system's, nor one of this process's) are counted as sent and returned, to start;
        /// `seal` is fulfilled once every waiting one sent or to start has its answer.
        func take(waiting: [String], running: Set<String>, for seal: Seal<Int>) -> [String] {
            let (starting, awaited) = state.withLock { state -> ([String], Set<String>) in
                let starting = waiting.filter { !running.contains($0) && !state.sending.contains($0) }
                state.sending.formUnion(starting)
                state.sending.formUnion(running.intersection(waiting))
                let awaited = Set(waiting).intersection(state.sending)
                if !awaited.isEmpty { state.awaited.append((awaited, 0, seal)) }
                return (starting, awaited)
            }
            if awaited.isEmpty { seal.fulfill(0) }
            return starting
        }

        func whenEventsDelivered(_ handler: @escaping @Sendable () -> Void) {
            state.withLock { $0.eventsDelivered = handler }
        }

        func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
            let id = dataTask.taskIdentifier
            let over = state.withLock { state -> Bool in
                guard !state.cut.contains(id) else { return false }
                var body = state.bodies[id] ?? Data()
                body.append(data)
                guard body.count > limit else {
                    state.bodies[id] = body
                    return false
                }
                state.bodies[id] = body.prefix(limit)
                state.cut.insert(id)
                return true
            }
            if over { dataTask.cancel() }
        }

        func urlSession(
            _ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
            newRequest request: URLRequest, completionHandler: @escaping @Sendable (URLRequest?) -> Void
        ) {
            completionHandler(nil)  // the 3xx is the answer
        }

        func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?)
        {
            let id = task.taskIdentifier
            let (body, cut) = state.withLock { state in
                (state.bodies.removeValue(forKey: id) ?? Data(), state.cut.remove(id) != nil)
            }
            guard let name = task.taskDescription else { return }
            let response = task.response as? HTTPURLResponse
            let answer: SpooledAnswer
            if let response, error == nil || cut {
                var headers: [String: String] = [:]
                for case (let field as String, let value as String) in response.allHeaderFields {
                    headers[field] = value
                }
                answer = SpooledAnswer(
                    status: response.statusCode, headers: headers, body: body, truncated: cut)
            } else {
                let code = (error as? URLError)?.code ?? .unknown
                // Cancelled here (the session given up): not an answer; the request waits.
                if code == .cancelled { return finished(name, answered: false) }
                answer = SpooledAnswer(failure: code)
            }
            // An answer that cannot be written leaves the request waiting: it goes again.
            let written = (try? spool.record(answer, for: name)) != nil
            finished(name, answered: written)
        }

        // Apple declares it unavailable on macOS, where no app delegate is given a session's events.
        #if !os(macOS)
            func urlSessionDidFinishEvents(forBackgroundURLSession session: URLSession) {
                eventsDelivered()
            }
        #endif

        /// Calls the handler the system gave with the session's events, once.
        func eventsDelivered() {
            let handler = state.withLock { state in
                defer { state.eventsDelivered = nil }
                return state.eventsDelivered
            }
            handler?()
        }

        /// Counts `name` done for every caller waiting for it (its answer, if any, in the spool);
        /// fulfills those with nothing left.
        func finished(_ name: String, answered: Bool) {
            let done = state.withLock { state -> [(Seal<Int>, Int)] in
                state.sending.remove(name)
                var done: [(Seal<Int>, Int)] = []
                state.awaited = state.awaited.compactMap { waiter in
                    guard waiter.names.contains(name) else { return waiter }
                    let left = waiter.names.subtracting([name])
                    let answered = waiter.answered + (answered ? 1 : 0)
                    if left.isEmpty {
                        done.append((waiter.seal, answered))
                        return nil
                    }
                    return (left, answered, waiter.seal)
                }
                return done
            }
            for (seal, count) in done { seal.fulfill(count) }
        }
    }
}
