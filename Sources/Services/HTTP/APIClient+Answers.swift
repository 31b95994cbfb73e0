import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// What an answer's headers and body say beyond its status.
extension APIClient {
    /// The `Retry-After` header in seconds; a date form counts from now.
    static func retryAfter(_ response: HTTPURLResponse) -> Double? {
        guard
            let value = response.value(forHTTPHeaderField: "Retry-After")?.trimmingCharacters(
                in: .whitespaces)
        else { return nil }
        if let seconds = Double(value) { return max(0, seconds) }
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss zzz"
        return formatter.date(from: value).map { max(0, $0.timeIntervalSinceNow) }
    }

    /// The start of a body, for an error.
    static func excerpt(of data: Data) -> String {
        String(decoding: data.prefix(512), as: UTF8.self)
    }
}
