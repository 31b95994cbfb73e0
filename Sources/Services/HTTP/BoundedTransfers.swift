import Foundation
import Promises

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Runs an ``APIClient``'s requests with a delegate that receives each body as it arrives, so
/// that a body over the limit is stopped at the limit: memory stays near the limit whatever the
/// server sends (a completion handler would get the whole body, buffered first).
///
/// The sessions are made from the client's session's configuration (its headers,
/// cache and protocol classes). How a transfer is stopped is a platform seam:
/// - Apple platforms: one session for the client, and the task cancelled, as documented.
/// - Linux: FoundationNetworking goes on receiving (and buffering, with no back-pressure on the
///   delegate's queue) after a data task is cancelled from its delegate; suspending the task and
///   ending its session stops it. So the client's session is retired when a transfer must be
///   stopped: the task is suspended and cancelled, the session ends once its other transfers are
///   done, and the next request starts a new one. Until then every request shares one session and
///   the connections it keeps open (a session per request would connect anew each time). What
///   arrived before the stop took effect is still buffered: memory stays within a few times the
///   limit, not at it (the README's reliability table has figures).
final class BoundedTransfers: Sendable {
    /// The body was over the limit: the transfer was stopped after `bytes` (at least that many).
    struct TooLarge: Error {
        let bytes: Int
        /// The status of the answer whose body it was, when it came.
        let status: Int?
    }

    #if canImport(FoundationNetworking)
        private let configuration: URLSessionConfiguration
        /// The session new transfers start on, made when the first needs it, with its delegate.
        private let current = CurrentSession()

        init(configuration: URLSessionConfiguration, idle: TimeInterval) {
            self.configuration = Self.configuration(configuration, idle: idle)
        }

        deinit {
            current.retire(nil)
        }
    #elseif canImport(Darwin)
        private let session: URLSession
        private let delegate = Delegate()

        init(configuration: URLSessionConfiguration, idle: TimeInterval) {
            session = URLSession(
                configuration: Self.configuration(configuration, idle: idle), delegate: delegate,
                delegateQueue: nil)
        }

        // The session holds its delegate until it is invalidated; the delegate does not hold this
        // object, so the last client copy going away ends the session once its tasks are done.
        deinit {
            session.finishTasksAndInvalidate()
        }
    #else
        #error("BoundedTransfers knows how to stop a transfer on Apple platforms and Linux")
    #endif

    /// A copy of `configuration` whose requests may be silent for `idle` seconds: the client's
    /// timeout, not the configuration's (60 s unless the app set one), decides how long a request
    /// may wait. Apple platforms keep a request's own timeout only when it is shorter than the
    /// configuration's; Linux keeps the configuration's unless the request's was set after the
    /// request was made (``APIClient`` sets it so).
    static func configuration(_ configuration: URLSessionConfiguration, idle: TimeInterval)
        -> URLSessionConfiguration
    {
        let copy = configuration.copy() as? URLSessionConfiguration ?? configuration
        copy.timeoutIntervalForRequest = idle
        return copy
    }

    /// A session of its own with the client's configuration, for `delegate`: a stream that stays
    /// open (``EventStream``) is kept apart from the client's requests. Its requests may be silent
    /// for `idle` seconds before the session ends them: the client's timeout is for requests that
    /// answer, and would cut a stream whose only judge of silence is its own keep-alive.
    func session(delegate: any URLSessionDataDelegate, idle: TimeInterval) -> URLSession {
        #if canImport(FoundationNetworking)
            let configuration = Self.configuration(configuration, idle: idle)
        #else
            let configuration = Self.configuration(session.configuration, idle: idle)
        #endif
        return URLSession(configuration: configuration, delegate: delegate, delegateQueue: nil)
    }

    /// Starts `request`; `finish` hears once how it ended: the body and the response, the
    /// transport's error, or ``TooLarge``. A body from a file goes as an upload task from it,
    /// read as it is sent.
    ///
    /// - Returns: The task, for cancelling.
    func start(
        _ request: URLRequest, body: RequestBody? = nil, limit: Int,
        finish: @escaping @Sendable (Result<(Data, HTTPURLResponse?), any Error>) -> Void
    ) -> URLSessionDataTask {
        var sent: (@Sendable (Int64) -> Void)?
        func task(on session: URLSession) -> URLSessionDataTask {
            guard case .file(let file, _, let progress) = body else { return session.dataTask(with: request) }
            sent = progress
            return session.uploadTask(with: request, fromFile: file)
        }
        #if canImport(FoundationNetworking)
            let (session, delegate) = current.session(configuration)
            let current = current
            let task = task(on: session)
            delegate.register(
                task,
                Delegate.Transfer(limit: limit, sent: sent, finish: finish) { [weak task] in
                    // Suspending pauses the transfer at once; ending its session then stops it (a
                    // cancelled task alone goes on receiving).
                    task?.suspend()
                    task?.cancel()
                    current.retire(session)
                })
        #else
            let task = task(on: session)
            delegate.register(
                task,
                Delegate.Transfer(limit: limit, sent: sent, finish: finish) { [weak task] in task?.cancel() })
        #endif
        task.resume()
        return task
    }
}

#if canImport(FoundationNetworking)
    extension BoundedTransfers {
        /// The session new transfers start on (Linux), and its retirement.
        final class CurrentSession: Sendable {
            private let current = Locked<(URLSession, Delegate)?>(nil)

            /// The session to start a transfer on: the current one, or a new one.
            func session(_ configuration: URLSessionConfiguration) -> (URLSession, Delegate) {
                current.withLock { current in
                    if let current { return current }
                    let delegate = Delegate()
                    let session = URLSession(
                        configuration: configuration, delegate: delegate, delegateQueue: nil)
                    current = (session, delegate)
                    return (session, delegate)
                }
            }

            /// Ends `session` once its transfers are done, and starts no more on it; `nil` ends
            /// whichever is current. A session retired already is left as it is.
            func retire(_ session: URLSession?) {
                let retired = current.withLock { current -> URLSession? in
                    guard let kept = current, session == nil || kept.0 === session else { return nil }
                    current = nil
                    return kept.0
                }
                retired?.finishTasksAndInvalidate()
            }
        }
    }
#endif

/// The sessions' delegate: gathers each body as it arrives, and stops it at its limit.
extension BoundedTransfers {
    final class Delegate: NSObject, URLSessionDataDelegate, Sendable {
        private let transfers = Locked<[Int: Transfer]>([:])

        /// What the delegate gathers for one task, who hears how it ended, and how it is stopped.
        struct Transfer: Sendable {
            /// The largest body accepted: the client's, or ``APIClient/maximumConflictBytes`` for a 412.
            var limit: Int
            var data = Data()
            var response: HTTPURLResponse?
            /// Hears how many bytes of the request's body have gone, for a body from a file.
            let sent: (@Sendable (Int64) -> Void)?
            let finish: @Sendable (Result<(Data, HTTPURLResponse?), any Error>) -> Void
            let stop: @Sendable () -> Void

            init(
                limit: Int, sent: (@Sendable (Int64) -> Void)? = nil,
                finish: @escaping @Sendable (Result<(Data, HTTPURLResponse?), any Error>) -> Void,
                stop: @escaping @Sendable () -> Void
            ) {
                self.limit = limit
                self.sent = sent
                self.finish = finish
                self.stop = stop
            }
        }

        func register(_ task: URLSessionTask, _ transfer: Transfer) {
            transfers.withLock { $0[task.taskIdentifier] = transfer }
        }

        /// Ends the transfer of `task`, once: the first ending wins.
        private func end(
            _ task: URLSessionTask, _ result: (Transfer) -> Result<(Data, HTTPURLResponse?), any Error>
        ) {
            guard let transfer = transfers.withLock({ $0.removeValue(forKey: task.taskIdentifier) }) else {
                return
            }
            transfer.finish(result(transfer))
        }

        /// Ends the transfer of `task` as too large, and stops it.
        private func refuse(_ task: URLSessionTask, bytes: Int) {
            guard let transfer = transfers.withLock({ $0.removeValue(forKey: task.taskIdentifier) }) else {
                return
            }
            transfer.stop()
            transfer.finish(.failure(TooLarge(bytes: bytes, status: transfer.response?.statusCode)))
        }

        func urlSession(
            _ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
            completionHandler: @escaping (URLSession.ResponseDisposition) -> Void
        ) {
            let limit = transfers.withLock { transfers -> Int? in
                let id = dataTask.taskIdentifier
                transfers[id]?.response = response as? HTTPURLResponse
                // A 412's body is the API's copy, which an outbox conflict keeps: a bound of its own.
                if (response as? HTTPURLResponse)?.statusCode == 412, let limit = transfers[id]?.limit {
                    transfers[id]?.limit = min(limit, APIClient.maximumConflictBytes)
                }
                return transfers[id]?.limit
            }
            // A body announced larger than the limit is not even started.
            if let limit, response.expectedContentLength > Int64(limit) {
                refuse(dataTask, bytes: Int(clamping: response.expectedContentLength))
                completionHandler(.cancel)
                return
            }
            completionHandler(.allow)
        }

        func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
            let id = dataTask.taskIdentifier
            let over = transfers.withLock { transfers -> Int? in
                // No copy of the transfer is held here: it would share the body, and the append
                // below would then copy it.
                guard let limit = transfers[id]?.limit, let count = transfers[id]?.data.count else {
                    return nil
                }
                let total = count + data.count
                if total > limit { return total }
                transfers[id]?.data.append(data)  // in place: a copy would cost the whole body each time
                return nil
            }
            if let over { refuse(dataTask, bytes: over) }
        }

        func urlSession(
            _ session: URLSession, task: URLSessionTask, didSendBodyData bytesSent: Int64,
            totalBytesSent: Int64, totalBytesExpectedToSend: Int64
        ) {
            transfers.withLock { $0[task.taskIdentifier]?.sent }?(totalBytesSent)
        }

        /// Follows a redirect only for a read that stays within the origin it was sent to (scheme,
        /// host and port): a write is never sent elsewhere (its body would be lost on a 301, 302 or
        /// 303, its `Idempotency-Key` and `If-Match` would go to another host on a 307 or 308), and
        /// a read sent to another origin is a captive portal's, or another site's, answer. Not
        /// following hands the 3xx over as the answer (``APIError/redirected(status:location:)``).
        func urlSession(
            _ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
            newRequest request: URLRequest, completionHandler: @escaping @Sendable (URLRequest?) -> Void
        ) {
            completionHandler(Self.follows(from: task.originalRequest, to: request) ? request : nil)
        }

        /// Whether a redirect from `original` to `next` is followed: a GET or HEAD, to the same
        /// origin.
        static func follows(from original: URLRequest?, to next: URLRequest) -> Bool {
            guard let original, let from = original.url, let to = next.url,
                ["GET", "HEAD"].contains(original.httpMethod ?? "GET")
            else { return false }
            return origin(of: from) == origin(of: to)
        }

        /// Scheme, host and port (the scheme's default when the URL gives none), in lower case.
        static func origin(of url: URL) -> String {
            let scheme = url.scheme?.lowercased() ?? ""
            let port = url.port ?? (scheme == "https" ? 443 : 80)
            return "\(scheme)://\(url.host?.lowercased() ?? ""):\(port)"
        }

        func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?)
        {
            end(task) { transfer in
                if let error { return .failure(error) }
                return .success((transfer.data, transfer.response ?? task.response as? HTTPURLResponse))
            }
        }
    }
}
