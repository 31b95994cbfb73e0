import Foundation

extension URL {
    /// The address as it may be shown: without a user name or password given in it.
    var withoutCredentials: String {
        Self.withoutCredentials(absoluteString)
    }

    /// Text given as an address, as it may be shown: whatever stands before an `@` after the
    /// scheme (a user name, a password, both) removed, whether or not the text is a valid URL,
    /// since a rejected address is the one most likely to be repeated in an error. The `@` is
    /// looked for to the end of the text, not only to the first `/`: a password may hold a `/`,
    /// and hiding a path with an `@` in it is a smaller harm than showing a password.
    ///
    /// - Parameter text: The address as given (`--api`, `DEMO_API_URL`).
    /// - Returns: The text to show.
    static func withoutCredentials(_ text: String) -> String {
        let start = text.range(of: "://").map(\.upperBound) ?? text.startIndex
        guard let at = text[start...].lastIndex(of: "@") else { return text }
        return String(text[..<start] + text[text.index(after: at)...])
    }
}
