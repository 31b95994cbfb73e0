import Foundation
import Testing

@testable import Promises

/// Every `PromiseError` says what went wrong in a sentence, in `description`, `debugDescription`
/// and `localizedDescription`.
@Suite("PromiseError descriptions")
struct PromiseErrorDescriptionTests {
    static let all: [PromiseError] = [
        .timedOut, .compactMapReturnedNil, .emptyRace, .returnedSelf, .emptySequence,
        .invalidCallingConvention,
        .invalidConcurrency,
    ]

    @Test("each error has a sentence of its own, the same in localizedDescription", arguments: all)
    func sentence(error: PromiseError) {
        #expect(error.description.hasSuffix("."))
        #expect(error.localizedDescription == error.description)
        #expect(Self.all.filter { $0.description == error.description } == [error])
    }

    @Test("the debug description names the case")
    func debugNamesCase() {
        #expect(
            String(reflecting: PromiseError.timedOut) == "PromiseError.timedOut: \(PromiseError.timedOut)")
        #expect(
            String(reflecting: PromiseError.invalidConcurrency).hasPrefix("PromiseError.invalidConcurrency: ")
        )
    }
}
