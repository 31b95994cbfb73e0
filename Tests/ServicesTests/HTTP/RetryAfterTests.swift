import Foundation
import PromiseMVPTesting
import Testing

@testable import Services

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// What a `Retry-After` header is taken to mean, hostile values included.
@Suite("APIClient: Retry-After")
struct RetryAfterTests {
    static func answer(_ value: String) throws -> HTTPURLResponse {
        let url = try #require(URL(string: "http://127.0.0.1/"))
        return try #require(
            HTTPURLResponse(
                url: url, statusCode: 429, httpVersion: "HTTP/1.1", headerFields: ["Retry-After": value]))
    }

    @Test(
        "seconds are taken as they are, from 0 to a day; what is neither a number nor a date is ignored",
        arguments: [
            ("120", 120), (" 5 ", 5), ("0", 0), ("-5", 0), ("0.2", 0.2), ("inf", 86_400), ("1e308", 86_400),
            ("nan", nil), ("soon", nil), ("", nil), ("120 seconds", nil), ("Tuesday", nil),
        ] as [(String, Double?)])
    func values(header: String, seconds: Double?) throws {
        // Given / When
        let taken = APIClient.retryAfter(try Self.answer(header))
        // Then
        #expect(taken == seconds)
    }

    @Test("a date counts from now: one past is 0, one years ahead is a day")
    func dates() throws {
        // Given / When
        let past = APIClient.retryAfter(try Self.answer("Wed, 21 Oct 2015 07:28:00 GMT"))
        let farAhead = APIClient.retryAfter(try Self.answer("Fri, 01 Jan 2100 00:00:00 GMT"))
        // Then
        #expect(past == 0)
        #expect(farAhead == APIClient.longestRetryAfter)
    }
}
