import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// What an answer's headers and body say beyond its status.
extension APIClient {
    /// A 429 or 503 answer and when it asked to come back (its `Retry-After`, in seconds).
    package struct RetryLater: Error {
        package let error: APIError
        let retryAfter: Double?
    }

    /// The longest wait a `Retry-After` is taken at: a day. A server asking for more (or for
    /// `1e308` seconds, or `inf`) is waited a day, not forever.
    package static let longestRetryAfter: Double = 86_400

    /// The `Retry-After` header in seconds (RFC 9110, 10.2.3), from 0 to a day; a date form counts
    /// from now. A value that is neither a number nor a date is ignored (`nil`): whoever retries
    /// uses its own backoff.
    static func retryAfter(_ response: HTTPURLResponse) -> Double? {
        guard
            let value = response.value(forHTTPHeaderField: "Retry-After")?.trimmingCharacters(
                in: .whitespaces)
        else { return nil }
        if let seconds = Double(value) {
            guard !seconds.isNaN else { return nil }
            return min(max(0, seconds), longestRetryAfter)
        }
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss zzz"
        return formatter.date(from: value).map { min(max(0, $0.timeIntervalSinceNow), longestRetryAfter) }
    }

    /// Why a 2xx answer is not the API's, or `nil` when it may be: a page (an HTML or XML
    /// content type), or a body whose first character cannot start JSON (a sign-in page served as
    /// `text/plain`, say). An empty body may be the API's (a 204). Only the first byte is looked
    /// at, so a long listing is not read twice; a body that starts as JSON and is not is a
    /// decoding failure of whoever decodes it.
    static func notTheAPI(_ data: Data, _ response: HTTPURLResponse) -> APIError? {
        let type = (response.value(forHTTPHeaderField: "Content-Type") ?? "").lowercased()
        let mediaType = type.split(separator: ";").first.map { $0.trimmingCharacters(in: .whitespaces) } ?? ""
        if mediaType == "text/html" || mediaType.hasSuffix("xml") {
            return .notTheAPI(reason: "a \(response.statusCode) answer of type \(mediaType)")
        }
        guard let first = data.first(where: { !jsonWhitespace.contains($0) }) else { return nil }
        guard jsonStarts.contains(first) else {
            let shown = mediaType.isEmpty ? "no type" : "type \(mediaType)"
            return .notTheAPI(reason: "a \(response.statusCode) answer of \(shown) that is not JSON")
        }
        return nil
    }

    /// Space, tab, line feed and carriage return: JSON's whitespace (RFC 8259).
    private static let jsonWhitespace: Set<UInt8> = [0x20, 0x09, 0x0A, 0x0D]
    /// The bytes a JSON value may start with: `{`, `[`, `"`, a digit, `-`, and `t`, `f`, `n`.
    private static let jsonStarts: Set<UInt8> = Set(Array("{[\"-0123456789tfn".utf8))

    /// The most of a `412 Precondition Failed` answer's body kept: 1 MiB. The body is the API's
    /// current copy, which an outbox conflict keeps (with the change and its base) until the
    /// user resolves it; a copy larger than this is not read further, and the change is refused
    /// with the reason rather than held with a copy this device would keep several times over.
    public static let maximumConflictBytes = 1 << 20

    /// A 412 whose body (the API's copy) is larger than ``maximumConflictBytes``: for the outbox,
    /// which refuses the change with that reason. Callers of ``send(_:_:body:headers:)`` get a 412
    /// without a body.
    package struct ConflictTooLarge: Error {
        package let bytes: Int
    }

    /// The start of a body, for an error.
    static func excerpt(of data: Data) -> String {
        String(decoding: data.prefix(512), as: UTF8.self)
    }
}
