package import Foundation

extension APIClient {
    /// `value` made safe as one segment of a path: every character a path cannot hold, and `/`,
    /// percent-escaped, so that an identifier such as `a/b c` stays one segment (`a%2Fb%20c`).
    ///
    /// The outbox uses it when it gives a created resource the API's identifier; a feature uses
    /// it for every identifier it puts in a path:
    ///
    /// ```swift
    /// client.get("notes/\(APIClient.pathSegment(id))", as: Note.self)
    /// ```
    ///
    /// - Parameter value: An identifier, or any text meant as one path segment.
    /// - Returns: The segment, escaped once.
    public static func pathSegment(_ value: String) -> String {
        value.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed.subtracting(["/"])) ?? value
    }

    /// `value` made safe as a query value: everything but unreserved characters percent-escaped,
    /// so that `&`, `=`, `+` and `#` in a token stay in it.
    ///
    /// ```swift
    /// client.get("notes?since=\(APIClient.queryValue(token))", as: NotesFeed.self)
    /// ```
    ///
    /// - Parameter value: Any text.
    /// - Returns: The value, escaped once.
    public static func queryValue(_ value: String) -> String {
        let unreserved = CharacterSet(
            charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")
        return value.addingPercentEncoding(withAllowedCharacters: unreserved) ?? value
    }

    /// `path` resolved against ``baseURL``. A path is taken as written, percent escapes included
    /// (`orders/%20abc` is sent as such, not as `%2520abc`: a segment escaped by
    /// ``pathSegment(_:)`` arrives as it was escaped); characters a path cannot hold are escaped
    /// once.
    /// A query after a `?` is taken as written too, its values escaped by ``queryValue(_:)``.
    package func url(for path: String) -> URL {
        let trimmed = path.hasPrefix("/") ? String(path.dropFirst()) : path
        var allowed = CharacterSet.urlPathAllowed
        allowed.insert("%")
        var escaped = trimmed.addingPercentEncoding(withAllowedCharacters: allowed) ?? trimmed
        if let mark = trimmed.firstIndex(of: "?") {
            var query = CharacterSet.urlQueryAllowed
            query.insert("%")
            let (before, after) = (trimmed[..<mark], trimmed[trimmed.index(after: mark)...])
            escaped =
                (before.addingPercentEncoding(withAllowedCharacters: allowed) ?? String(before)) + "?"
                + (after.addingPercentEncoding(withAllowedCharacters: query) ?? String(after))
        }
        let base =
            baseURL.absoluteString.hasSuffix("/") ? baseURL.absoluteString : baseURL.absoluteString + "/"
        return URL(string: base + escaped) ?? baseURL.appendingPathComponent(trimmed)
    }
}
