import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// What an answer's headers and body say beyond its status.
extension APIClient {
    /// The longest wait a `Retry-After` is taken at: a day. A server asking for more (or for
    /// `1e308` seconds, or `inf`) is waited a day, not forever.
    static let longestRetryAfter: Double = 86_400

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

    /// The start of a body, for an error.
    static func excerpt(of data: Data) -> String {
        String(decoding: data.prefix(512), as: UTF8.self)
    }
}
