import Foundation
import Testing

@testable import OfflineKit

/// The field-by-field merge a `412` leads to (`JSONMerge.swift`), on the bodies themselves.
@Suite("JSON merge")
struct JSONMergeTests {
    static func json(_ text: String) -> Data { Data(text.utf8) }

    static func fields(_ data: Data?) -> NSDictionary? {
        data.flatMap { try? JSONSerialization.jsonObject(with: $0) as? NSDictionary }
    }

    @Test("a field one side added, or removed, is that side's change: kept in the merge")
    func fieldAddedOrRemovedOnOneSide() {
        // Given: mine adds `tag`; theirs removes `colour` and changes `text`
        let base = Self.json(#"{"text": "a", "colour": "red", "version": 1}"#)
        let mine = Self.json(#"{"text": "a", "colour": "red", "tag": "x", "version": 1}"#)
        let theirs = Self.json(#"{"text": "b", "version": 2}"#)

        // When
        let merged = JSONMerge.threeWay(base: base, mine: mine, theirs: theirs)

        // Then
        #expect(Self.fields(merged) == ["text": "b", "tag": "x", "version": 2])
    }

    @Test("a field added on both sides with different values is a conflict")
    func fieldAddedOnBothSidesConflicts() {
        // Given
        let base = Self.json(#"{"text": "a"}"#)
        let mine = Self.json(#"{"text": "a", "tag": "x"}"#)
        let theirs = Self.json(#"{"text": "a", "tag": "y"}"#)

        // When
        let merged = JSONMerge.threeWay(base: base, mine: mine, theirs: theirs)
        let conflicting = JSONMerge.conflictingFields(base: base, mine: mine, theirs: theirs)

        // Then
        #expect(merged == nil)
        #expect(conflicting == ["tag"])
    }

    @Test("bodies differ by a field one of them lacks; the same fields in another order are the same")
    func sameAndDiffering() {
        // Given
        let body = Self.json(#"{"text": "a", "tag": "x", "version": 1}"#)
        let reordered = Self.json(#"{"version": 3, "tag": "x", "text": "a"}"#)
        let lacking = Self.json(#"{"text": "a", "version": 1}"#)

        // Then
        #expect(JSONMerge.isSame(body, reordered))
        #expect(!JSONMerge.isSame(body, lacking))
        #expect(JSONMerge.differingFields(body, lacking) == ["tag"])
    }

    @Test("bodies that are not JSON objects are the same only byte for byte")
    func sameWhenNotObjects() {
        // Given: an array, the same array, another, and text that is no JSON
        let array = Self.json("[1, 2]")
        let other = Self.json("[2, 1]")
        let text = Self.json("not json")

        // Then
        #expect(JSONMerge.isSame(array, Self.json("[1, 2]")))
        #expect(JSONMerge.isSame(text, Self.json("not json")))
        #expect(!JSONMerge.isSame(array, other))
        #expect(!JSONMerge.isSame(array, text))
    }
}
