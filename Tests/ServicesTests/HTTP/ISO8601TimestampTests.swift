import Foundation
import PromiseMVPTesting
import Testing

@testable import Services

/// The API's dates: written with the fractional seconds a `Date` holds, read in every ISO 8601
/// form an API sends.
@Suite("ISO 8601 dates")
struct ISO8601TimestampTests {
    struct Stamped: Codable, Equatable {
        var at: Date
    }

    @Test("a date with fractional seconds comes back equal through the standard coders")
    func fractionalSecondsRoundTrip() throws {
        // Given
        let half = Stamped(at: Date(timeIntervalSince1970: 1_764_086_400.5))

        // When
        let json = try APIClient.encode(half)
        let decoded = try APIClient.decode(Stamped.self, from: json)

        // Then
        #expect(String(decoding: json, as: UTF8.self) == #"{"at":"2025-11-25T16:00:00.5Z"}"#)
        #expect(decoded == half)
    }

    @Test("any date from 1900 to 2200, down to its last bit, reads back as itself")
    func everyDateRoundTrips() {
        // Given
        var generator = SeededGenerator(seed: 47)
        let dates = (0..<2_000).map { _ in
            Date(timeIntervalSince1970: Double.random(in: -2_208_988_800...7_258_118_400, using: &generator))
        }

        // When
        let read = dates.map { ISO8601Timestamp.date(from: ISO8601Timestamp.string(from: $0)) }

        // Then
        #expect(read == dates)
    }

    @Test("a fraction that rounds up to a whole second is written as the next second")
    func fractionRoundingUpCarries() {
        // Given: 0.9999999999 s past a whole second, which nine digits round to 1
        let date = Date(timeIntervalSinceReferenceDate: 100.999_999_999_9)

        // Then
        #expect(ISO8601Timestamp.string(from: date) == "2001-01-01T00:01:41Z")
    }

    @Test("whole seconds are written as Foundation's ISO 8601 formatter writes them")
    func wholeSecondsMatchFoundation() {
        // Given
        let formatter = ISO8601DateFormatter()
        var generator = SeededGenerator(seed: 7)
        let dates = (0..<500).map { _ in
            Date(
                timeIntervalSince1970: Double(
                    Int64.random(in: -2_208_988_800...7_258_118_400, using: &generator)))
        }

        // Then
        #expect(dates.map(ISO8601Timestamp.string(from:)) == dates.map(formatter.string(from:)))
    }

    @Test(
        "each form an API writes is read, with or without a fraction, in UTC or with an offset",
        arguments: [
            ("2026-11-25T16:00:00Z", 0.0), ("2026-11-25T17:00:00+01:00", 0), ("2026-11-25T11:30:00-0430", 0),
            ("2026-11-25T16:00:00.123Z", 0.123), ("2026-11-25t16:00:00.1234567z", 0.1234567),
        ])
    func formsAreRead(text: String, fraction: Double) throws {
        // When
        let date = try #require(ISO8601Timestamp.date(from: text))

        // Then
        #expect(abs(date.timeIntervalSince1970 - (1_795_622_400 + fraction)) < 1e-6)
    }

    @Test(
        "the last day of a 400-year cycle, and the day after, read and write back as themselves",
        arguments: ["2000-02-29T12:00:00Z", "2000-03-01T00:00:00Z", "1600-02-29T23:59:59Z"])
    func cycleEdgesRoundTrip(text: String) throws {
        // When
        let date = try #require(ISO8601Timestamp.date(from: text))

        // Then
        #expect(ISO8601Timestamp.string(from: date) == text)
    }

    @Test("a leap second (23:59:60) is read, as the first second of the next day")
    func leapSecondIsRead() throws {
        // When
        let leap = try #require(ISO8601Timestamp.date(from: "2016-12-31T23:59:60Z"))

        // Then: 2017-01-01T00:00:00Z
        #expect(leap.timeIntervalSince1970 == 1_483_228_800)
    }

    @Test(
        "what is not a date and time is refused, a day the month lacks included",
        arguments: [
            "2026-02-30T00:00:00Z", "2026-11-25", "2026-11-25T16:00:00", "2026-13-01T00:00:00Z",
            "2026-11-25T24:00:00Z", "2026-11-25T16:60:00Z", "2026-11-25T16:00:61Z",
            "2026-11-25T16:00:00+24:00",
            "2026-11-25T16:00:00+01:60", "2026-11-25T16:00:00.123", "2026-11-25T16:00:00.Z",
            "2026-11-25T16:00:00Zjunk", "tomorrow", "",
            // A letter O for a zero, and a colon (the byte after 9) where a digit belongs.
            "2O26-11-25T16:00:00Z", "2026-11-25T16:00:0:Z",
        ])
    func malformedIsRefused(text: String) {
        #expect(ISO8601Timestamp.date(from: text) == nil)
    }

    @Test("a body with a malformed date fails to decode, naming it")
    func malformedBodyFails() {
        // When
        let error = #expect(throws: APIError.self) {
            try APIClient.decode(Stamped.self, from: Data(#"{"at":"2026-02-30T00:00:00Z"}"#.utf8))
        }

        // Then
        guard case .decoding(_, let reason)? = error else { return }
        #expect(reason.contains("2026-02-30T00:00:00Z"))
    }
}
