import Foundation
import PromiseMVPTesting
import Promises
import Testing

@testable import Services

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

    @Test(
        "a database error names the file and the cause, short for a notice, in full for a log",
        arguments: [
            (DatabaseError.Kind.busy, 5, "the database is locked by another program"),
            (
                .readOnly, 8,
                "the database cannot be written; check the permissions of the file and its folder"
            ),
            (.diskFull, 13, "the disk is full"),
            (.corrupt, 11, "the database is damaged; restore it from a backup or delete it to start again"),
        ])
    func databaseErrorWording(kind: DatabaseError.Kind, code: Int32, cause: String) {
        // Given
        let error = DatabaseError(
            kind: kind, code: code, message: "sqlite says", path: "/data/app.sqlite", sql: "INSERT x")

        // When
        let mapped = ServiceRequestError(error)

        // Then
        #expect(mapped == .storageFailed(reason: "/data/app.sqlite: \(cause)"))
        #expect(mapped.cause == "/data/app.sqlite: \(cause)")
        #expect(
            error.description
                == "/data/app.sqlite: \(cause) (SQLite \(code): sqlite says) while running: INSERT x")
        #expect(
            mapped.userMessage
                == "The data stored on this device cannot be read or written: /data/app.sqlite: \(cause).")
    }

    @Test(
        "a storage reason that is a sentence of its own ends the message with one full stop",
        arguments: [
            ("the file is full", "the file is full."), ("Update the app.", "Update the app."),
            ("Is it open elsewhere?", "Is it open elsewhere?"),
        ])
    func storageReasonEndsOnce(reason: String, ending: String) {
        // When
        let message = ServiceRequestError.storageFailed(reason: reason).userMessage

        // Then
        #expect(message == "The data stored on this device cannot be read or written: \(ending)")
    }

    @Test("cancelled counts as a cancellation, so catch skips it")
    func cancelledIsCancellation() {
        #expect(ServiceRequestError.cancelled.isCancellation)
        #expect(!ServiceRequestError.noNetwork.isCancellation)
    }
}
