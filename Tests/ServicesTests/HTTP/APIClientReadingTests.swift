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
    static func response(_ status: Int, _ fields: [String: String] = ["Location": "/elsewhere"]) throws
        -> HTTPURLResponse
    {
        let url = try #require(URL(string: "http://127.0.0.1/songs"))
        return try #require(
            HTTPURLResponse(url: url, statusCode: status, httpVersion: "HTTP/1.1", headerFields: fields))
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

    @Test(
        "an answer's validators are whichever fields it has; none is no validators",
        arguments: [
            ([:], nil),
            (["ETag": #""v1""#], CacheValidators(etag: #""v1""#)),
            (
                ["Last-Modified": "Tue, 1 Dec 2026 10:00:00 GMT"],
                CacheValidators(lastModified: "Tue, 1 Dec 2026 10:00:00 GMT")
            ),
            (["Sync-Token": "t7"], CacheValidators(syncToken: "t7")),
        ] as [([String: String], CacheValidators?)])
    func validators(fields: [String: String], expected: CacheValidators?) throws {
        // When
        let answer = APIClient.Answer(Data(), try Self.response(200, fields))

        // Then
        #expect(answer.validators == expected)
    }

    @Test("a validator of up to 4,096 bytes is kept; one byte more is not")
    func longestValidator() throws {
        // Given
        let longest = #"""# + String(repeating: "v", count: APIClient.Answer.longestValidator - 2) + #"""#
        let tooLong = #"""# + String(repeating: "v", count: APIClient.Answer.longestValidator - 1) + #"""#

        // When
        let kept = APIClient.Answer(Data(), try Self.response(200, ["ETag": longest]))
        let dropped = APIClient.Answer(Data(), try Self.response(200, ["ETag": tooLong]))

        // Then
        #expect(kept.etag == longest && dropped.etag == nil)
    }

    @Test(
        "a page is not the API's answer, even when its body could start JSON",
        arguments: ["text/html; charset=utf-8", "application/xml", "text/xml"])
    func pagesAreNotTheAPI(type: String) throws {
        // When
        let reading = APIClient.reading(
            Data("[]".utf8), try Self.response(200, ["Content-Type": type]), conditional: false,
            wantsJSON: true)

        // Then
        guard case .failure(APIError.notTheAPI) = reading else {
            Issue.record("\(type): \(reading)")
            return
        }
    }

    @Test(
        "a redirect is followed only for a read to the same origin, the scheme's default port included",
        arguments: [
            ("GET", "https://api.example/a", "https://api.example:443/b", true),
            ("GET", "http://api.example/a", "http://API.example:80/b", true),
            ("HEAD", "http://api.example/a", "http://api.example/b", true),
            ("GET", "https://api.example/a", "http://api.example/b", false),
            ("GET", "https://api.example/a", "https://api.example:8443/b", false),
            ("POST", "https://api.example/a", "https://api.example/b", false),
            ("PUT", "https://api.example/a", "https://api.example/b", false),
        ])
    func redirectsFollowed(method: String, from: String, to: String, follows: Bool) throws {
        // Given
        var original = URLRequest(url: try #require(URL(string: from)))
        original.httpMethod = method
        let next = URLRequest(url: try #require(URL(string: to)))

        // Then
        #expect(BoundedTransfers.Delegate.follows(from: original, to: next) == follows)
        #expect(!BoundedTransfers.Delegate.follows(from: nil, to: next))
    }
}
