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

    @Test("two answers with the same fields are one resource, whatever their versions and order")
    func sameFieldsOfTwoAnswers() {
        // Given: a kept copy, the API's answer with another version and order, one with another
        // field value, one lacking a field, and answers that are no JSON object
        let kept = Self.json(#"{"id": "7", "text": "a", "version": 1}"#)
        let answer = Self.json(#"{"version": 2, "text": "a", "id": "7"}"#)
        let changed = Self.json(#"{"id": "7", "text": "b", "version": 1}"#)
        let lacking = Self.json(#"{"id": "7", "version": 1}"#)
        let array = Self.json("[1]")

        // Then
        #expect(JSONMerge.sameFields(kept, answer))
        #expect(!JSONMerge.sameFields(kept, changed))
        #expect(!JSONMerge.sameFields(kept, lacking))
        #expect(!JSONMerge.sameFields(array, array))
    }

    @Test("a body naming the resource by its id gets the replacement; any other comes back as it came")
    func namingReplacesOnlyTheId() {
        // Given: a body naming `local-1` in two fields, and one naming it nowhere, its keys unsorted
        let naming = Self.json(#"{"id": "local-1", "text": "a", "self": "local-1"}"#)
        let other = Self.json(#"{"text": "a", "id": "9", "price": 1.10}"#)

        // When
        let renamed = JSONMerge.naming(naming, "local-1", as: "42")
        let unnamed = JSONMerge.naming(naming, "local-1", as: nil)
        let untouched = JSONMerge.naming(other, "local-1", as: "42")

        // Then: the bytes of a body naming no id are kept, not written again
        #expect(Self.fields(renamed) == ["id": "42", "text": "a", "self": "42"])
        #expect(Self.fields(unnamed) == ["text": "a"])
        #expect(untouched == other)
    }
}
