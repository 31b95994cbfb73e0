public import Foundation

/// The sentence a list screen shows about where its data came from: nothing for fresh data, else
/// that it is the copy on the device, why, and how old it is ("Offline: showing melodies saved
/// 5 minutes ago.").
///
/// Every feature words this the same way, with its own noun. Ages are given in words up to a few
/// weeks ("just now", "1 minute ago", "3 hours ago", "2 days ago", "3 weeks ago"), then as a date
/// in the locale and time zone given. The words are English; the date follows the locale.
///
/// ```swift
/// let notice = SourceNotice(noun: "melodies")
/// view.showSourceNotice(notice.text(for: fetched))
/// ```
public struct SourceNotice: Sendable {
    /// What the list holds, plural, as the sentence names it: "melodies", "orders".
    public let noun: String
    /// Who failed when the server answers 5xx: "The server" by default.
    public let server: String
    private let dateFormatter: DateFormatter
    private let now: @Sendable () -> Date

    /// Makes the wording for one list.
    ///
    /// - Parameters:
    ///   - noun: What the list holds, plural: "melodies".
    ///   - server: Who failed when the server answers 5xx; "The server" by default.
    ///   - locale: The language and region dates are written for; the user's by default.
    ///   - timeZone: The time zone dates are written in; the user's by default.
    ///   - now: The clock that tells how old the copy is.
    public init(
        noun: String, server: String = "The server", locale: Locale = .current,
        timeZone: TimeZone = .current, now: @escaping @Sendable () -> Date = { Date() }
    ) {
        self.noun = noun
        self.server = server
        let dateFormatter = DateFormatter()
        dateFormatter.locale = locale
        dateFormatter.timeZone = timeZone
        dateFormatter.dateStyle = .short
        dateFormatter.timeStyle = .short
        self.dateFormatter = dateFormatter
        self.now = now
    }

    /// How long ago `date` was, in words: "just now", "5 minutes ago", "3 hours ago",
    /// "2 days ago", "3 weeks ago"; from five weeks on, "on" and the date; a moment still to come
    /// (a clock set back, a file from another device) "at a time in the future" and the date.
    ///
    /// - Parameter date: A moment in the past.
    /// - Returns: The text.
    public func age(of date: Date) -> String {
        let now = now()
        if DataSource.isFromTheFuture(date, now: now) {
            return "at a time in the future (\(dateFormatter.string(from: date)))"
        }
        let seconds = now.timeIntervalSince(date)
        switch seconds {
        case ..<60: return "just now"
        case ..<3_600: return Self.count(Int(seconds / 60), "minute") + " ago"
        case ..<86_400: return Self.count(Int(seconds / 3_600), "hour") + " ago"
        case ..<604_800: return Self.count(Int(seconds / 86_400), "day") + " ago"
        case ..<3_024_000: return Self.count(Int(seconds / 604_800), "week") + " ago"
        default: return "on \(dateFormatter.string(from: date))"
        }
    }

    /// The sentence for data from `source`: `nil` when it is fresh.
    ///
    /// - Parameter source: Where the data came from.
    /// - Returns: The sentence, or `nil`.
    public func text(for source: DataSource) -> String? {
        switch source {
        case .network:
            return nil
        case .stored(let savedAt):
            return "Showing \(noun) saved \(age(of: savedAt))."
        case .cache(let savedAt, let reason):
            return "\(why(reason)): showing \(noun) saved \(age(of: savedAt))."
        case .nothingSaved:
            return "Offline: no \(noun) saved on this device yet."
        }
    }

    /// The sentence for an answer: fresh data that could not be saved on the device says so and
    /// why (``Fetched/unsavedNotice``); a copy shown while fresh data is on its way says it is
    /// being refreshed; otherwise as ``text(for:)``.
    ///
    /// - Parameters:
    ///   - fetched: The answer.
    ///   - refreshing: Whether fresh data was asked for and is still to come.
    /// - Returns: The sentence, or `nil` for fresh data that was saved.
    public func text<Value>(for fetched: Fetched<Value>, refreshing: Bool = false) -> String? {
        if let unsaved = fetched.unsavedNotice { return unsaved }
        guard refreshing, let savedAt = fetched.source.savedAt else { return text(for: fetched.source) }
        return "Showing \(noun) saved \(age(of: savedAt)); refreshing…"
    }

    /// What a screen that prints every answer (a terminal, a log) says of fresh data from
    /// `address`: that it was saved for offline use, or that it is the same as the copy shown
    /// before it.
    ///
    /// - Parameters:
    ///   - address: Where it came from, credentials left out.
    ///   - unchanged: Whether it equals the copy shown before it.
    /// - Returns: The sentence.
    public func freshText(from address: String, unchanged: Bool) -> String {
        unchanged
            ? "Fresh from \(address): the same as the copy above."
            : "Fresh from \(address), saved for offline use."
    }

    /// Why the copy is shown instead of fresh data, as ``FailureClass`` reads the reason.
    private func why(_ reason: ServiceRequestError) -> String {
        let failure = FailureClass(reason)
        return switch (failure.kind, failure.status) {
        case (.later, let status?): "\(server) asks to be asked again later (error \(status))"
        case (_, let status?): "\(server) is having trouble (error \(status))"
        case _ where reason == .timedOut: "\(server) is not answering"
        default: "Offline"
        }
    }

    private static func count(_ count: Int, _ unit: String) -> String {
        count == 1 ? "1 \(unit)" : "\(count) \(unit)s"
    }
}
