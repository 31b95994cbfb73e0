import Foundation
import Testing

@testable import PromiseMVPTestServer

/// A resource's `id` and `version` set in its JSON bytes, every other member kept as sent.
@Suite("StampedJSON")
struct StampedJSONTests {
    /// The stamped bytes as text, or `nil`.
    private func stamp(_ json: String, id: String = "n-1", version: String = "2") -> String? {
        StampedJSON.stamp(Data(json.utf8), id: id, version: version).map {
            String(decoding: $0, as: UTF8.self)
        }
    }

    @Test(
        "the id and version come first and replace the object's own; the other members are kept byte for byte"
    )
    func replacesAndKeeps() {
        // Given: an object with its own id and version, and numbers a parse-and-write would change
        let json = #"{ "amount" : 123456789012345.67, "id":"old", "tiny":1e-7, "version": "1", "zero":0.10 }"#

        // When
        let stamped = stamp(json)

        // Then
        #expect(stamped == #"{"id":"n-1","version":"2","amount":123456789012345.67,"tiny":1e-7,"zero":0.10}"#)
    }

    @Test("brackets, braces, quotes and escapes inside strings and nested values do not end a member")
    func nestedAndEscaped() throws {
        // Given
        let json =
            #"{"text":"a } ] \" { \\","nested":{"a":[1,{"b":"}"}],"id":"inner"},"list":[[],{}],"n":null}"#

        // When
        let stamped = try #require(stamp(json))

        // Then: the nested id is not the resource's, and every member survives
        #expect(
            stamped
                == #"{"id":"n-1","version":"2","text":"a } ] \" { \\","nested":{"a":[1,{"b":"}"}],"id":"inner"},"list":[[],{}],"n":null}"#
        )
    }

    @Test("a key spelled with escapes is still the id it names")
    func escapedKey() throws {
        // Given
        let stamped = try #require(stamp(#"{"\u0069d":"old","text":"x"}"#))

        // When
        let object = try #require(
            try JSONSerialization.jsonObject(with: Data(stamped.utf8)) as? [String: Any])

        // Then
        #expect(stamped == #"{"id":"n-1","version":"2","text":"x"}"#)
        #expect(object["id"] as? String == "n-1")
    }

    @Test(
        "an id with quotes, backslashes, control characters and non-ASCII is written as a valid JSON string")
    func quotedIdentifier() throws {
        // Given
        let id = "a\"b\\c\n\u{1}é🎵"

        // When
        let stamped = try #require(StampedJSON.stamp(Data("{}".utf8), id: id, version: "1"))
        let object = try #require(try JSONSerialization.jsonObject(with: stamped) as? [String: Any])

        // Then
        #expect(object["id"] as? String == id)
        #expect(object["version"] as? String == "1")
        #expect(object.count == 2)
    }

    @Test(
        "what is not a well-formed JSON object is refused",
        arguments: ["[1]", "\"text\"", "{\"a\":", "", "{} x"])
    func refusesNonObjects(json: String) {
        #expect(stamp(json) == nil)
    }
}
