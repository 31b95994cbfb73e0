import Foundation
import Testing

#if SUBPROCESSES  // where the demo is built: macOS and Linux (Package.swift)
    @testable import Demo
#endif

#if SUBPROCESSES
    /// What `orders sync` prints of a stopped sync (`SyncScreen.swift`).
    @Suite("Demo: the sync screen")
    struct SyncScreenTests {
        var calendar: Calendar {
            var calendar = Calendar(identifier: .gregorian)
            calendar.locale = Locale(identifier: "en_US")
            calendar.timeZone = TimeZone(identifier: "UTC") ?? calendar.timeZone
            return calendar
        }

        @Test("a next attempt later today shows its time only; one on another day shows its date too")
        func nextAttemptShowsItsDateWhenNotToday() {
            // Given: noon on 25 November 2026, UTC
            let now = Date(timeIntervalSince1970: 1_795_608_000)

            // When
            let today = SyncScreen.when(now.addingTimeInterval(3_600), now: now, calendar: calendar)
            let tomorrow = SyncScreen.when(now.addingTimeInterval(86_400), now: now, calendar: calendar)

            // Then
            // (ICU puts a narrow no-break space before "PM": compared up to it)
            #expect(today.hasPrefix("1:00:00") && !today.contains("2026"))
            #expect(tomorrow.hasPrefix("Nov 26, 2026") && tomorrow.contains("12:00:00"))
        }
    }
#endif
