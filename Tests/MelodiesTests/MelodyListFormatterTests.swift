import Foundation
import Melodies
import MelodiesTesting
import Testing
import XCTest

// The presenter's XCTest suite, written as an app's test target would write it: only the public
// products are imported, and the doubles are the ones `MelodiesTesting` ships. Each test waits for
// the presenter's promise, so it fails when the presenter is broken instead of asserting in a
// callback nobody waits for. The tests are `async` and on the main actor, like the presenter and
// the view: XCTest on Linux runs main-actor tests only when they are `async`.

// MARK: - Tests

@Suite("Melody list formatter")
struct MelodyListFormatterTests {
    @Test(
        "durations read as m:ss, and h:mm:ss past an hour",
        arguments: [
            (0, "0:00"), (7, "0:07"), (9, "0:09"), (10, "0:10"), (59, "0:59"), (60, "1:00"), (187, "3:07"),
            (600, "10:00"), (3599, "59:59"), (3600, "1:00:00"), (3723, "1:02:03"), (36_610, "10:10:10"),
            (-5, "0:00"),
        ])
    func durations(seconds: Int, text: String) {
        #expect(pinnedFormatter.duration(seconds) == text)
    }

    @Test("fresh data has no notice")
    func noNoticeForNetwork() {
        #expect(pinnedFormatter.notice(for: .network) == nil)
    }
}
