import Foundation
import PromiseMVPTesting
import Promises
import Services
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// One test per row of the mapping from any error to `ServiceRequestError`.
@Suite("ServiceRequestError mapping")
struct ServiceRequestErrorMappingTests {
    struct Row: Sendable, CustomTestStringConvertible {
        let error: any Error
        let expected: ServiceRequestError
        var testDescription: String { "\(error) → \(expected)" }
    }

    static let rows: [Row] = [
        Row(error: ServiceRequestError.noData, expected: .noData),
        Row(error: URLError(.notConnectedToInternet), expected: .noNetwork),
        Row(error: URLError(.networkConnectionLost), expected: .noNetwork),
        Row(error: URLError(.cannotConnectToHost), expected: .noNetwork),
        Row(error: URLError(.cannotFindHost), expected: .noNetwork),
        Row(error: URLError(.dnsLookupFailed), expected: .noNetwork),
        Row(error: URLError(.internationalRoamingOff), expected: .noNetwork),
        Row(error: URLError(.dataNotAllowed), expected: .noNetwork),
        Row(error: URLError(.timedOut), expected: .timedOut),
        Row(error: PromiseError.timedOut, expected: .timedOut),
        Row(error: URLError(.cancelled), expected: .cancelled),
        Row(error: CancellationError(), expected: .cancelled),
        Row(error: URLError(.badServerResponse), expected: .unknownError),
        Row(error: APIError.httpStatus(404, body: ""), expected: .httpStatus(404)),
        Row(error: APIError.httpStatus(503, body: "down"), expected: .httpStatus(503)),
        Row(
            error: APIError.decoding(type: "Melody", reason: "id: missing"),
            expected: .decodingFailed(type: "Melody", reason: "id: missing")),
        Row(error: APIError.notHTTP, expected: .unknownError),
        Row(
            error: DecodingError.typeMismatch(
                Int.self, .init(codingPath: [], debugDescription: "not a number")),
            expected: .decodingFailed(type: "Int", reason: "not a number")),
        Row(error: PromiseError.emptyRace, expected: .unknownError),
    ]

    @Test("maps each kind of error to the case a caller acts on", arguments: rows)
    func mapsRow(_ row: Row) {
        // When
        let mapped = ServiceRequestError(row.error)

        // Then
        #expect(mapped == row.expected)
    }

    @Test("a database error becomes storageFailed, saying what happened")
    func mapsDatabaseError() async throws {
        // Given
        let database = try Database.inMemory()
        let failure = await PromiseExpectations.error(
            of: database.read { try $0.query("SELECT * FROM missing") })

        // When
        let mapped = failure.map(ServiceRequestError.init)

        // Then
        guard case .storageFailed(let reason) = mapped else {
            Issue.record("expected storageFailed, got \(String(describing: mapped))")
            return
        }
        #expect(reason.contains("no such table: missing"))
    }

    @Test("cancelled counts as a cancellation, so catch skips it")
    func cancelledIsCancellation() {
        #expect(ServiceRequestError.cancelled.isCancellation)
        #expect(!ServiceRequestError.noNetwork.isCancellation)
    }
}

@Suite("ServiceRequestError mapping of feature errors")
struct ServiceRequestErrorConvertibleTests {
    struct StoreFailure: ServiceRequestErrorConvertible {
        var serviceRequestError: ServiceRequestError { .timedOut }
    }

    @Test("an error that knows its service error maps to it")
    func convertibleMaps() {
        #expect(ServiceRequestError(StoreFailure()) == .timedOut)
    }
}
