import Foundation
import PromiseMVPTesting
import Testing

/// The one wording every list uses for where its data came from, with a fixed clock.
@Suite("Source notice")
struct SourceNoticeTests {
    static let now = Date(timeIntervalSince1970: 1_800_000_000)
    let notice = SourceNotice(
        noun: "recipes", locale: Locale(identifier: "en_US_POSIX"),
        timeZone: TimeZone(identifier: "UTC") ?? .current, now: { SourceNoticeTests.now })

    @Test(
        "ages in words, from seconds to weeks, then the date",
        arguments: [
            (0.0, "just now"), (59, "just now"), (60, "1 minute ago"), (119, "1 minute ago"),
            (3_599, "59 minutes ago"), (3_600, "1 hour ago"), (86_399, "23 hours ago"), (86_400, "1 day ago"),
            (604_799, "6 days ago"), (604_800, "1 week ago"), (3_023_999, "4 weeks ago"),
            (3_024_000, "on 12/11/26, 8:00\u{202F}AM"), (-0.5, "just now"),
            (-30, "at a time in the future (1/15/27, 8:00\u{202F}AM)"),
        ])
    func ages(secondsAgo: Double, expected: String) {
        #expect(notice.age(of: Self.now.addingTimeInterval(-secondsAgo)) == expected)
    }

    @Test("the sentence for each source")
    func sentences() {
        let savedAt = Self.now.addingTimeInterval(-300)
        let cases: [(DataSource, String?)] = [
            (.network, nil),
            (.stored(savedAt: savedAt), "Showing recipes saved 5 minutes ago."),
            (.cache(savedAt: savedAt, reason: .noNetwork), "Offline: showing recipes saved 5 minutes ago."),
            (
                .cache(savedAt: savedAt, reason: .timedOut),
                "The server is not answering: showing recipes saved 5 minutes ago."
            ),
            (
                .cache(savedAt: savedAt, reason: .httpStatus(503)),
                "The server is having trouble (error 503): showing recipes saved 5 minutes ago."
            ),
        ]
        for (source, expected) in cases {
            #expect(notice.text(for: source) == expected, "\(source)")
        }
    }

    @Test("a copy being refreshed, and fresh data that could not be saved, say so")
    func refreshingAndUnsaved() {
        let copy = Fetched(value: [1], source: .stored(savedAt: Self.now.addingTimeInterval(-7_200)))
        let unsaved = Fetched(
            value: [1], source: .network,
            cacheWriteError: .storageFailed(
                reason: "/data/app.sqlite: the database is locked by another program"))

        #expect(notice.text(for: copy, refreshing: true) == "Showing recipes saved 2 hours ago; refreshing…")
        #expect(notice.text(for: copy) == "Showing recipes saved 2 hours ago.")
        #expect(
            notice.text(for: unsaved)
                == "Fresh, but they could not be saved for offline use: /data/app.sqlite: the database is locked by another program"
        )
        #expect(notice.text(for: Fetched(value: [1], source: .network), refreshing: true) == nil)
    }

    @Test("the server can be named")
    func namedServer() {
        let shop = SourceNotice(noun: "orders", server: "The shop's server", now: { SourceNoticeTests.now })
        #expect(
            shop.text(for: .cache(savedAt: Self.now, reason: .httpStatus(500)))
                == "The shop's server is having trouble (error 500): showing orders saved just now.")
    }

    @Test("a copy shown because the server asked to be asked later says so, not that it is failing")
    func askedForLater() {
        // When
        let text = notice.text(for: .cache(savedAt: Self.now, reason: .httpStatus(429)))

        // Then
        #expect(
            text == "The server asks to be asked again later (error 429): showing recipes saved just now.")
    }

    @Test("fresh data printed by a terminal or a log: saved, or the same as the copy above")
    func freshText() {
        // Then
        #expect(
            notice.freshText(from: "http://api/", unchanged: false)
                == "Fresh from http://api/, saved for offline use.")
        #expect(
            notice.freshText(from: "http://api/", unchanged: true)
                == "Fresh from http://api/: the same as the copy above.")
    }
}
