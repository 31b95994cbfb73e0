import Foundation
import Promises
import Testing

@testable import Services

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// One test per row of `FailureClass`'s table: every `URLError` code a request meets, every HTTP
/// status class, and what each decision (show the copy, queue the write, send the GET again) is.
@Suite("FailureClass")
struct FailureClassTests {
    struct Row: Sendable, CustomTestStringConvertible {
        let error: any Error
        let kind: FailureClass.Kind
        let showsCopy: Bool
        let queuesWrite: Bool
        let passesSoon: Bool
        var testDescription: String { "\(error) → \(kind)" }

        init(
            _ error: any Error, _ kind: FailureClass.Kind,
            showsCopy: Bool, queuesWrite: Bool = false, passesSoon: Bool = false
        ) {
            self.error = error
            self.kind = kind
            self.showsCopy = showsCopy
            self.queuesWrite = queuesWrite
            self.passesSoon = passesSoon
        }
    }

    static func http(_ status: Int, retryAfter: Double? = nil) -> any Error {
        let error = APIError.httpStatus(status, body: "")
        return retryAfter.map { APIClient.RetryLater(error: error, retryAfter: $0) } ?? error
    }

    static let rows: [Row] = [
        // No way to the API, and nothing says it comes back within seconds.
        Row(URLError(.notConnectedToInternet), .offline, showsCopy: true, queuesWrite: true),
        Row(URLError(.cannotFindHost), .offline, showsCopy: true, queuesWrite: true),
        Row(URLError(.dnsLookupFailed), .offline, showsCopy: true, queuesWrite: true),
        Row(URLError(.internationalRoamingOff), .offline, showsCopy: true, queuesWrite: true),
        Row(URLError(.dataNotAllowed), .offline, showsCopy: true, queuesWrite: true),
        Row(ServiceRequestError.noNetwork, .offline, showsCopy: true, queuesWrite: true),
        // The API could not be reached this time; the same GET may get through.
        Row(URLError(.cannotConnectToHost), .offline, showsCopy: true, queuesWrite: true, passesSoon: true),
        Row(URLError(.timedOut), .offline, showsCopy: true, queuesWrite: true, passesSoon: true),
        Row(URLError(.networkConnectionLost), .offline, showsCopy: true, queuesWrite: true, passesSoon: true),
        Row(ServiceRequestError.timedOut, .offline, showsCopy: true, queuesWrite: true, passesSoon: true),
        Row(PromiseError.timedOut, .offline, showsCopy: true, queuesWrite: true, passesSoon: true),
        // Cancelled: nothing to show, nothing to keep.
        Row(URLError(.cancelled), .cancelled, showsCopy: false),
        Row(CancellationError(), .cancelled, showsCopy: false),
        Row(ServiceRequestError.cancelled, .cancelled, showsCopy: false),
        // Other URLError codes: not a connectivity problem.
        Row(URLError(.badServerResponse), .other, showsCopy: false),
        Row(URLError(.badURL), .other, showsCopy: false),
        // "Later": reached, and asked to come back.
        Row(http(408), .later, showsCopy: true),
        Row(http(425), .later, showsCopy: true),
        Row(http(429), .later, showsCopy: true),
        Row(http(429, retryAfter: 2), .later, showsCopy: true, passesSoon: true),
        Row(http(503, retryAfter: 2), .later, showsCopy: true, passesSoon: true),
        // Server trouble: 5xx; gateways and "unavailable" may pass.
        Row(http(500), .serverTrouble, showsCopy: true),
        Row(http(501), .serverTrouble, showsCopy: true),
        Row(http(502), .serverTrouble, showsCopy: true, passesSoon: true),
        Row(http(503), .serverTrouble, showsCopy: true, passesSoon: true),
        Row(http(504), .serverTrouble, showsCopy: true, passesSoon: true),
        Row(ServiceRequestError.httpStatus(500), .serverTrouble, showsCopy: true),
        // Refused: the request itself is wrong.
        Row(http(400), .refused, showsCopy: false),
        Row(http(403), .refused, showsCopy: false),
        Row(http(404), .refused, showsCopy: false),
        Row(http(409), .refused, showsCopy: false),
        Row(http(422), .refused, showsCopy: false),
        Row(ServiceRequestError.httpStatus(404), .refused, showsCopy: false),
        // Signed out: the API wants a sign-in, or nobody is signed in; nothing is refused meanwhile.
        Row(http(401), .signedOut, showsCopy: false),
        Row(ServiceRequestError.httpStatus(401), .signedOut, showsCopy: false),
        Row(AuthenticationError.signedOut, .signedOut, showsCopy: false),
        // Anything else.
        Row(http(302), .other, showsCopy: false),
        Row(APIError.notHTTP, .other, showsCopy: false),
        Row(APIError.decoding(type: "Melody", reason: "id: missing"), .other, showsCopy: false),
        Row(APIError.responseTooLarge(bytes: 2, limit: 1), .other, showsCopy: false),
        Row(ServiceRequestError.storageFailed(reason: "disk full"), .other, showsCopy: false),
        Row(ServiceRequestError.noData, .other, showsCopy: false),
        Row(PromiseError.emptyRace, .other, showsCopy: false),
    ]

    @Test("classifies each failure and decides what follows from it", arguments: rows)
    func classifies(_ row: Row) {
        // When
        let failure = FailureClass(row.error)

        // Then
        #expect(failure.kind == row.kind)
        #expect(failure.showsSavedCopy == row.showsCopy)
        #expect(failure.queuesWrite == row.queuesWrite)
        #expect(failure.passesSoon == row.passesSoon)
        #expect(RetryPolicy.isTransient(row.error) == row.passesSoon)
    }

    @Test("keeps the status and the Retry-After the API sent")
    func keepsStatusAndRetryAfter() {
        // When
        let later = FailureClass(Self.http(429, retryAfter: 7))
        let refused = FailureClass(Self.http(409))
        let offline = FailureClass(URLError(.notConnectedToInternet))

        // Then
        #expect(later.status == 429 && later.retryAfter == 7)
        #expect(refused.status == 409 && refused.retryAfter == nil)
        #expect(offline.status == nil && offline.retryAfter == nil)
    }

    @Test("agrees with ServiceRequestError's own questions")
    func agreesWithServiceRequestError() {
        // Then
        #expect(ServiceRequestError.noNetwork.isConnectivityFailure)
        #expect(ServiceRequestError.timedOut.isConnectivityFailure)
        #expect(!ServiceRequestError.httpStatus(503).isConnectivityFailure)
        #expect(ServiceRequestError.httpStatus(503).isServerError)
        #expect(!ServiceRequestError.httpStatus(429).isServerError)
    }

    @Test(
        "412 is a conflict, 404 and 410 are gone, 400 and 422 invalid: one answer each, every other status none",
        arguments: [400, 401, 403, 404, 409, 410, 412, 422, 429, 500])
    func conflictGoneAndInvalid(status: Int) {
        // When
        let failure = FailureClass(Self.http(status))

        // Then
        #expect(failure.isConflict == (status == 412))
        #expect(failure.isGone == (status == 404 || status == 410))
        #expect(failure.isInvalid == (status == 400 || status == 422))
    }

    @Test("a 412 gives the API's copy it came with, also when no copy came; nothing else gives one")
    func conflictCopy() {
        // Then
        #expect(
            FailureClass.conflictCopy(of: APIError.httpStatus(412, body: #"{"id":"1"}"#))
                == .some(Data(#"{"id":"1"}"#.utf8)))
        #expect(FailureClass.conflictCopy(of: APIError.httpStatus(412, body: "")) == .some(nil))
        #expect(FailureClass.conflictCopy(of: APIError.httpStatus(409, body: "{}")) == nil)
        #expect(FailureClass.conflictCopy(of: URLError(.timedOut)) == nil)
    }

    @Test(
        "a URLError becomes the ServiceRequestError its class says: out of reach is no network, the time running out timed out",
        arguments: [
            (URLError.Code.notConnectedToInternet, ServiceRequestError.noNetwork),
            (.cannotFindHost, .noNetwork),
            (.dnsLookupFailed, .noNetwork), (.internationalRoamingOff, .noNetwork),
            (.dataNotAllowed, .noNetwork),
            (.cannotConnectToHost, .noNetwork), (.networkConnectionLost, .noNetwork), (.timedOut, .timedOut),
            (.cancelled, .cancelled), (.badURL, .unknownError),
        ])
    func urlErrorMapping(code: URLError.Code, mapped: ServiceRequestError) {
        #expect(ServiceRequestError(URLError(code)) == mapped)
    }
}
