public import Foundation
public import Promises

#if canImport(FoundationNetworking)
    public import FoundationNetworking
#endif

/// A JSON-over-HTTP client for one API, on `URLSession`, that answers with promises.
///
/// Paths are resolved against ``baseURL``. A status outside 200-299 rejects with
/// ``APIError/httpStatus(_:body:)``, a body that does not decode with ``APIError/decoding(type:reason:)``
/// naming the type, a network failure with the `URLError`, and cancelling the promise cancels the
/// request. Map any of them with ``ServiceRequestError/init(_:)``.
///
/// Reads are made cheap to ask for:
/// - Identical GETs in flight (same URL and header fields) share one request, made by this client
///   or any copy of it: ten screens asking for `melodies` at once make one request and all get its
///   answer. A caller that cancels stops waiting; the request is cancelled once every caller has.
/// - A GET that failed in a way that may pass on its own is sent again, as ``retry`` says.
///   Writes are sent once (a 429 or 503 that asks to come back shortly aside).
public struct APIClient: Sendable {
    /// The address every path is resolved against.
    public let baseURL: URL
    /// How long a request may take, in seconds; past it the request is cancelled and the promise
    /// rejected with `PromiseError.timedOut` (``ServiceRequestError/timedOut`` once mapped).
    public let timeout: Double
    /// The largest body accepted, in bytes; a larger one rejects with
    /// ``APIError/responseTooLarge(bytes:limit:)`` rather than being decoded. The limit holds
    /// while the body arrives: a transfer is stopped as soon as it passes it (or at once, when the
    /// server announces more), so memory stays near the limit whatever the server sends.
    public let maximumResponseBytes: Int
    /// A 429 or 503 answer whose `Retry-After` asks to wait at most this many seconds is retried
    /// once after that wait; a longer wait, or a second refusal, rejects with the status.
    public let maximumRetryAfter: Double
    /// When a GET is sent again after a failure that may pass on its own.
    public let retry: RetryPolicy
    let transfers: BoundedTransfers
    /// Makes the decoder of each answer, and the encoder of each body: a fresh one per call, so
    /// that no coder is shared between threads.
    let makeDecoder: @Sendable () -> JSONDecoder
    let makeEncoder: @Sendable () -> JSONEncoder
    /// The GETs in flight, shared by the copies of this client that have its credentials.
    var shared = InFlight<String, Answer>()
    /// Who the requests are made for: see ``authorized(by:)``.
    public internal(set) var credentials: (any Credentials)?

    /// Makes a client for the API at `baseURL`.
    ///
    /// - Parameters:
    ///   - baseURL: The API's address, such as `http://127.0.0.1:8080/`.
    ///   - timeout: How long a request may take, in seconds.
    ///   - maximumResponseBytes: The largest body accepted; 16 MiB by default.
    ///   - maximumRetryAfter: The longest `Retry-After` honoured with a retry; 3 s by default.
    ///   - retry: When a GET is sent again; ``RetryPolicy/standard`` (two retries) by default.
    ///   - decoder: Makes the decoder of the answers of `get`, `post` and `put`;
    ///     ``standardDecoder`` (ISO 8601 dates) by default.
    ///   - encoder: Makes the encoder of the bodies of `post` and `put`; ``standardEncoder``
    ///     (ISO 8601 dates, sorted keys) by default.
    ///   - session: The session whose configuration requests are sent with (headers, cache,
    ///     protocol classes); the client runs them on a session of its own made from it, so that
    ///     it can stop a body at ``maximumResponseBytes``, and whose request timeout is `timeout`.
    public init(
        baseURL: URL, timeout: Double = 10, maximumResponseBytes: Int = 16 << 20,
        maximumRetryAfter: Double = 3, retry: RetryPolicy = .standard,
        decoder: @escaping @Sendable () -> JSONDecoder = APIClient.standardDecoder,
        encoder: @escaping @Sendable () -> JSONEncoder = APIClient.standardEncoder,
        session: URLSession = .shared
    ) {
        makeDecoder = decoder
        makeEncoder = encoder
        self.baseURL = baseURL
        self.timeout = timeout
        self.maximumResponseBytes = maximumResponseBytes
        self.maximumRetryAfter = maximumRetryAfter
        self.retry = retry
        transfers = BoundedTransfers(configuration: session.configuration, idle: Self.sessionTimeout(timeout))
    }

    /// Sends one request and hands over the body of a 2xx answer.
    ///
    /// A GET without a body joins an identical one in flight, and is sent again after a failure
    /// that may pass on its own (``retry``); any request answered 429 or 503 with a `Retry-After`
    /// of at most ``maximumRetryAfter`` is sent once more after that wait. All of it happens within
    /// ``timeout``.
    ///
    /// - Parameters:
    ///   - method: The HTTP method.
    ///   - path: The resource, relative to ``baseURL``, with any percent escapes it needs (an
    ///     identifier escaped once, as for a path segment).
    ///   - body: A JSON body, or `nil`.
    ///   - headers: Extra header fields, such as `Idempotency-Key`.
    /// - Returns: A promise of the body bytes.
    public func send(
        _ method: HTTPMethod, _ path: String, body: Data?, headers: [String: String] = [:]
    ) -> Promise<Data> {
        answer(method, path, body: body, headers: headers).map(on: .inline) { $0.body }
    }

    /// As ``send(_:_:body:headers:)``, but a 429 or 503 whose `Retry-After` was too long to wait
    /// for here rejects with ``RetryLater``, which keeps it: for the outbox, which keeps it with
    /// the entry so that no later sync asks before that time.
    package func exchange(
        _ method: HTTPMethod, _ path: String, body: Data?, headers: [String: String] = [:]
    ) -> Promise<Data> {
        exchangeAnswer(method, path, body: body, headers: headers).map(on: .inline) { $0.body }
    }

    /// The answer as ``exchange(_:_:body:headers:)`` gets it, with its status and header fields.
    func exchangeAnswer(
        _ method: HTTPMethod, _ path: String, body: Data?, headers: [String: String]
    ) -> Promise<Answer> {
        exchangeAnswer(method, at: url(for: path), body: body.map(RequestBody.data), headers: headers)
    }

    /// As ``exchangeAnswer(_:_:body:headers:)``, at a URL the API gave (an upload's `Location`),
    /// with a body in memory or from a file.
    func exchangeAnswer(
        _ method: HTTPMethod, at url: URL, body: RequestBody?, headers: [String: String]
    ) -> Promise<Answer> {
        let client = self
        let exchange = {
            client.authorizedAttempt(method, url, body: body, headers: headers)
                // Our own timer as well as URLSession's: on Linux the request's timeout is not
                // always applied, and it only counts whole seconds. Timing out cancels the work.
                .timeout(seconds: body?.timeout(client.timeout) ?? client.timeout)
        }
        guard method == .get, body == nil else { return exchange() }
        // The account is part of the key: two users' reads never share an answer.
        let key =
            (credentials?.account ?? "") + "\n" + url.absoluteString + "\n"
            + headers.sorted { $0.key < $1.key }.map { "\($0.key): \($0.value)" }.joined(separator: "\n")
        return shared.join(key, start: exchange)
    }

    /// Sends the request, and again after a failure ``retry`` or a `Retry-After` allows;
    /// `retry` counts the retries made so far.
    func attempt(
        _ method: HTTPMethod, _ url: URL, body: RequestBody?, headers: [String: String], retry: Int
    ) -> Promise<Answer> {
        let client = self
        return sendOnce(method, url, body: body, headers: headers).recover(on: .inline) {
            failure -> Promise<Answer> in
            let refusal = failure as? RetryLater
            let error = refusal?.error ?? failure
            let classified = FailureClass(failure)
            let delay: Double
            // The server said when to come back: that wait, once for a write, if it is short.
            // Without one (or one of no time), a read waits the backoff and a write is not resent.
            if let asked = classified.waitAsked {
                guard asked <= client.maximumRetryAfter,
                    retry < (method == .get ? client.retry.maximumRetries : 1)
                else { throw failure }
                delay = asked
            } else {
                guard method == .get, retry < client.retry.maximumRetries, classified.passesSoon
                else { throw error }
                delay = client.retry.delay(beforeRetry: retry)
            }
            return client.retry.wait(delay).asPromise().then(on: .inline) {
                client.attempt(method, url, body: body, headers: headers, retry: retry + 1)
            }
        }
    }

    /// Sends one request, without retrying.
    private func sendOnce(
        _ method: HTTPMethod, _ url: URL, body: RequestBody?, headers: [String: String]
    ) -> Promise<Answer> {
        var request = URLRequest(url: url)
        // Set, not given to the initializer: Linux keeps the session's timeout over one given
        // there, and over the client's.
        request.timeoutInterval = Self.sessionTimeout(body?.timeout(timeout) ?? timeout)
        request.httpMethod = method.rawValue
        request.setValue("application/json", forHTTPHeaderField: "Accept")
        for (field, value) in headers {
            request.setValue(value, forHTTPHeaderField: field)
        }
        if case .data(let data) = body {
            request.httpBody = data
            if request.value(forHTTPHeaderField: "Content-Type") == nil {
                request.setValue("application/json", forHTTPHeaderField: "Content-Type")
            }
        }
        let transfers = transfers
        let limit = maximumResponseBytes
        let wantsJSON = request.value(forHTTPHeaderField: "Accept")?.contains("json") ?? true
        return Promise { seal in
            let task = transfers.start(request, body: body, limit: limit) { result in
                switch result {
                case .failure(let tooLarge as BoundedTransfers.TooLarge) where tooLarge.status == 412:
                    seal.reject(ConflictTooLarge(bytes: tooLarge.bytes))
                case .failure(let tooLarge as BoundedTransfers.TooLarge):
                    seal.reject(APIError.responseTooLarge(bytes: tooLarge.bytes, limit: limit))
                case .failure(let error):
                    seal.reject(Self.normalized(error))
                case .success((let data, let response?)):
                    seal.resolve(
                        Self.reading(
                            data, response, conditional: headers.keys.contains(where: Self.isConditional),
                            wantsJSON: wantsJSON))
                case .success((_, nil)):
                    seal.reject(APIError.notHTTP)
                }
            }
            seal.setCancellationHandler { task.cancel() }
        }
    }

    /// What an answer means: a 2xx is the answer (checked as the API's JSON when `wantsJSON`); a
    /// `304` to a `conditional` request too; any other status the error a caller reads. The one
    /// reading of a status, for a request sent here and one a transfer service sent
    /// (``TransferSpool``).
    static func reading(_ data: Data, _ response: HTTPURLResponse, conditional: Bool, wantsJSON: Bool)
        -> Result<Answer, any Error>
    {
        let status = response.statusCode
        if (200..<300).contains(status) {
            // Checked as the API's JSON when JSON was asked for: a file's bytes are not.
            if wantsJSON, let other = Self.notTheAPI(data, response) { return .failure(other) }
            return .success(Answer(data, response))
        } else if status == 304, conditional {
            // Not modified since the validators the request sent: the copy is current.
            return .success(Answer(Data(), response))
        } else if (300..<400).contains(status) {
            // Not followed (BoundedTransfers): a write, or a read to another origin.
            return .failure(
                APIError.redirected(
                    status: status, location: response.value(forHTTPHeaderField: "Location") ?? ""))
        } else if status == 429 || status == 503 {
            return .failure(
                RetryLater(
                    error: .httpStatus(status, body: Self.excerpt(of: data)),
                    retryAfter: Self.retryAfter(response)))
        }
        // A 412 carries the API's current copy (an outbox conflict keeps it whole, within the
        // response limit); any other status, the start of what it said.
        let body = status == 412 ? String(decoding: data, as: UTF8.self) : Self.excerpt(of: data)
        return .failure(APIError.httpStatus(status, body: body))
    }

    /// An answer that never came whole is a lost connection, whatever the platform calls it, so
    /// that a write whose outcome is unknown is kept under its idempotency key (``FailureClass``)
    /// rather than reported as failed. Linux reports a body cut short as an unknown error,
    /// "transfer closed with n bytes remaining", and a connection closed before any answer as a
    /// bad server response, "Empty reply from server" (both from curl); Apple platforms report
    /// both as a lost connection already.
    static func normalized(_ error: any Error) -> any Error {
        guard let urlError = error as? URLError else { return error }
        let said = urlError.localizedDescription
        let lost =
            (urlError.code == .unknown && said.hasPrefix("transfer closed"))
            || (urlError.code == .badServerResponse && said.hasPrefix("Empty reply"))
        return lost ? URLError(.networkConnectionLost, userInfo: urlError.userInfo) : error
    }

    /// The timeout URLSession gets for a request that may take `seconds`: whole seconds on
    /// Linux, where it ignores fractions (half a second would be none).
    static func sessionTimeout(_ seconds: Double) -> Double {
        #if canImport(FoundationNetworking)
            max(1, seconds.rounded(.up))
        #else
            seconds
        #endif
    }
}
