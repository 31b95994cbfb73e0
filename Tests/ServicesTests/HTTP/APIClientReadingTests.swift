import Foundation
import Testing

@testable import Services

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// What an answer means (`APIClient.reading`), and which transport errors are a lost connection
/// (`APIClient.normalized`): the one reading of a status and of curl's words.
@Suite("APIClient: what an answer means")
struct APIClientReadingTests {
    static func response(_ status: Int) throws -> HTTPURLResponse {
        let url = try #require(URL(string: "http://127.0.0.1/songs"))
        return try #require(
            HTTPURLResponse(
                url: url, statusCode: status, httpVersion: "HTTP/1.1",
                headerFields: ["Location": "/elsewhere"]))
    }

    @Test(
        "the 2xx are answers and the 3xx redirects, at both ends of each range",
        arguments: [(200, true), (299, true), (300, false), (399, false)])
    func statusRanges(status: Int, isAnswer: Bool) throws {
        // When
        let reading = APIClient.reading(
            Data("[]".utf8), try Self.response(status), conditional: false, wantsJSON: false)

        // Then
        switch reading {
        case .success(let answer):
            #expect(isAnswer && answer.status == status)
        case .failure(APIError.redirected(let redirected, let location)):
            #expect(!isAnswer && redirected == status && location == "/elsewhere")
        case .failure(let other):
            Issue.record("\(status): \(other)")
        }
    }

    @Test("a 412 keeps the API's copy whole, as a conflict needs it; any other refusal only its start")
    func preconditionFailedKeepsTheWholeBody() throws {
        // Given: a body of 2,000 bytes
        let body = Data(String(repeating: "x", count: 2_000).utf8)

        // When
        let conflict = APIClient.reading(body, try Self.response(412), conditional: false, wantsJSON: true)
        let refusal = APIClient.reading(body, try Self.response(409), conditional: false, wantsJSON: true)

        // Then
        guard case .failure(APIError.httpStatus(412, let kept)) = conflict,
            case .failure(APIError.httpStatus(409, let start)) = refusal
        else {
            Issue.record("\(conflict), \(refusal)")
            return
        }
        #expect(kept.count == 2_000)
        #expect(start.count == 512)
    }

    @Test(
        "curl's words for an answer that never came whole are a lost connection; nothing else is",
        arguments: [
            (URLError.Code.unknown, "transfer closed with 12 bytes remaining to read", true),
            (.badServerResponse, "Empty reply from server", true),
            (.unknown, "Empty reply from server", false),
            (.badServerResponse, "transfer closed with 12 bytes remaining to read", false),
            (.unknown, "something else", false),
            (.badServerResponse, "something else", false),
            (.timedOut, "transfer closed with 12 bytes remaining to read", false),
        ])
    func lostConnections(code: URLError.Code, said: String, isLost: Bool) {
        // Given
        let error = URLError(code, userInfo: [NSLocalizedDescriptionKey: said])

        // When
        let normalized = APIClient.normalized(error) as? URLError

        // Then
        #expect(normalized?.code == (isLost ? .networkConnectionLost : code))
    }
}
