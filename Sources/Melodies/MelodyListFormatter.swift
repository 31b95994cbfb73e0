public import Foundation
public import Services

/// Turns melodies and where they came from into the text the list shows.
///
/// Create one per presenter: its date formatter is made once, with the locale and time zone given.
public struct MelodyListFormatter: Sendable {
    private let sourceNotice: SourceNotice

    /// Makes a formatter.
    ///
    /// - Parameters:
    ///   - locale: The language and region dates are written for; the user's by default.
    ///   - timeZone: The time zone dates are written in; the user's by default.
    ///   - now: The clock that tells how old cached data is.
    public init(
        locale: Locale = .current, timeZone: TimeZone = .current,
        now: @escaping @Sendable () -> Date = { Date() }
    ) {
        sourceNotice = SourceNotice(noun: "melodies", locale: locale, timeZone: timeZone, now: now)
    }

    /// A duration as minutes and seconds, `3:07`, or with hours past an hour, `1:02:03`.
    ///
    /// - Parameter seconds: Whole seconds; negative counts as zero.
    /// - Returns: The text.
    public func duration(_ seconds: Int) -> String {
        let total = max(0, seconds)
        let (hours, minutes, rest) = (total / 3600, total / 60 % 60, total % 60)
        let paddedSeconds = rest < 10 ? "0\(rest)" : "\(rest)"
        guard hours > 0 else { return "\(minutes):\(paddedSeconds)" }
        return "\(hours):\(minutes < 10 ? "0\(minutes)" : "\(minutes)"):\(paddedSeconds)"
    }

    /// The rows for `melodies`, in the same order.
    ///
    /// - Parameter melodies: The melodies to show.
    /// - Returns: One row per melody.
    public func rows(for melodies: [Melody]) -> [MelodyRow] {
        melodies.map { melody in
            MelodyRow(
                id: melody.id, title: melody.title, artist: melody.artist, album: melody.album,
                duration: duration(melody.durationSeconds))
        }
    }

    /// What to tell the user about where the list came from: `nil` for fresh data, otherwise why
    /// cached melodies are shown and how old they are (see `SourceNotice`).
    ///
    /// - Parameter source: Where the melodies came from.
    /// - Returns: The notice, or `nil`.
    public func notice(for source: DataSource) -> String? {
        sourceNotice.text(for: source)
    }

    /// What to tell the user about an answer: ``notice(for:)``, or, for fresh melodies that could
    /// not be saved on the device, that they are fresh but will not be there offline, and why;
    /// while `refreshing`, that the copy shown is being refreshed.
    ///
    /// - Parameters:
    ///   - fetched: The answer.
    ///   - refreshing: Whether fresh melodies were asked for and are still to come.
    /// - Returns: The notice, or `nil` for fresh melodies that were saved.
    public func notice(for fetched: Fetched<[Melody]>, refreshing: Bool = false) -> String? {
        sourceNotice.text(for: fetched, refreshing: refreshing)
    }

    /// How long ago `date` was, in words (see `SourceNotice/age(of:)`).
    ///
    /// - Parameter date: A moment in the past.
    /// - Returns: The text.
    public func age(of date: Date) -> String {
        sourceNotice.age(of: date)
    }
}
