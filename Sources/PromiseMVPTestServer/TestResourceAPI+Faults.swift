import Foundation
import Promises
import Services

/// The failures a ``TestResourceAPI`` makes on purpose: requests refused, answers lost or garbled,
/// a network that flaps, an API that is down.
extension TestResourceAPI {
    /// Whether the API is down: every request is answered `503` without being applied, as a
    /// server behind a load balancer answers while it restarts. Unlike stopping the server, its
    /// port stays taken, so no other server can answer in its place.
    public var isDown: Bool {
        get { lock.withLock { faults.down } }
        set { lock.withLock { faults.down = newValue } }
    }

    /// Whether the network does not reach the API: every connection is closed without an answer
    /// and nothing is applied. A client takes it as offline, not as a failure of the API, so its
    /// changes wait without counting failures (where ``isDown``'s `503`s count one each). The
    /// port stays taken, as with ``isDown``.
    public var isUnreachable: Bool {
        get { lock.withLock { faults.unreachable } }
        set { lock.withLock { faults.unreachable = newValue } }
    }

    /// Makes every request for `method` and `path` (such as `PUT /orders/srv-1`) answer `status`
    /// with `body`, without applying it, until ``allow(_:)``.
    ///
    /// - Parameters:
    ///   - request: The method and path.
    ///   - status: The status, such as 409.
    ///   - body: The body, such as `{"error": "changed by someone else"}`.
    public func refuse(_ request: String, status: Int, body: String) {
        lock.withLock { faults.refusals[request] = .status(status, body: body) }
    }

    /// Makes every request that `matches` says yes to answer `status` with `body`, without
    /// applying it: one resource of several sent to the same path, say.
    ///
    /// - Parameters:
    ///   - matches: Picks the requests to refuse.
    ///   - status: The status, such as 500.
    ///   - body: The body.
    public func refuse(
        matching matches: @escaping @Sendable (TestHTTPServer.Request) -> Bool, status: Int, body: String
    ) {
        lock.withLock { faults.matchingRefusals.append((matches, .status(status, body: body))) }
    }

    /// Stops refusing or garbling `request`: it is applied and answered as usual again.
    ///
    /// - Parameter request: The method and path, as given to ``refuse(_:status:body:)``.
    public func allow(_ request: String) {
        lock.withLock {
            faults.refusals[request] = nil
            faults.garbled.remove(request)
        }
    }

    /// Makes every request for `method` and `path` (such as `POST /orders`) applied as usual but
    /// answered with a body no one can read: the change is made, its answer is useless.
    ///
    /// - Parameter request: The method and path.
    public func garble(_ request: String) {
        lock.withLock { _ = faults.garbled.insert(request) }
    }

    /// Makes the next request for `method` and `path` applied as usual, and then answered with
    /// `reply` instead of its answer: `.reset` or `.closeWithoutAnswer` (the answer lost), or
    /// `.slowHeaders(seconds:then:)` (the answer too late for the client). Once; the requests after
    /// it are answered as usual.
    ///
    /// - Parameters:
    ///   - request: The method and path, such as `POST /orders`.
    ///   - reply: What the client gets instead of the answer.
    public func loseAnswer(to request: String, with reply: TestHTTPServer.Reply) {
        lock.withLock { faults.lostAnswers[request] = reply }
    }

    /// Makes every other request fail: alternately a 503 before doing anything, and a connection
    /// reset after the write was applied (its answer lost), the two ways a flaky network fails.
    ///
    /// - Parameter on: Whether to flap.
    public func flap(_ on: Bool) {
        lock.withLock { faults.flapping = on }
    }

    /// The failures asked for, and the count of requests that flapping steps through. A value kept
    /// under the API's lock.
    struct Faults {
        typealias Matcher = @Sendable (TestHTTPServer.Request) -> Bool

        var down = false
        var unreachable = false
        var flapping = false
        var requests = 0
        var refusals: [String: TestHTTPServer.Reply] = [:]
        var matchingRefusals: [(matches: Matcher, reply: TestHTTPServer.Reply)] = []
        var garbled: Set<String> = []
        var lostAnswers: [String: TestHTTPServer.Reply] = [:]

        /// What answers `request` instead of applying it, if anything; and whether to reset the
        /// connection once it is applied.
        mutating func before(_ request: TestHTTPServer.Request) -> (TestHTTPServer.Reply?, resetAfter: Bool) {
            requests += 1
            let step = flapping ? requests % 4 : 0
            if unreachable { return (TestHTTPServer.Reply.closeWithoutAnswer, false) }
            if down || step == 1 {
                return (TestHTTPServer.Reply.status(503, body: #"{"error": "try again"}"#), false)
            }
            let refusal =
                refusals["\(request.method) \(request.path)"]
                ?? matchingRefusals.first(where: { $0.matches(request) })?.reply
            return (refusal, step == 3)
        }

        /// What the client gets instead of `reply`, the answer to `request` once applied.
        mutating func after(_ request: TestHTTPServer.Request, reply: TestHTTPServer.Reply)
            -> TestHTTPServer.Reply
        {
            let route = "\(request.method) \(request.path)"
            if let lost = lostAnswers.removeValue(forKey: route) {
                guard case .slowHeaders(let seconds, _) = lost else { return lost }
                return .slowHeaders(seconds: seconds, then: reply)
            }
            guard garbled.contains(route), case .status(let status, _, let type, let headers) = reply else {
                return reply
            }
            return .status(status, body: "<html>Thank you!", contentType: type, headers: headers)
        }
    }
}
