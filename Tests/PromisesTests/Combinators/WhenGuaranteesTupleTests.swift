import Testing

@testable import Promises

/// `when(guarantees: a, b)` gives a guarantee of a tuple; guarantees of nothing still give a
/// guarantee of nothing.
@Suite("when(guarantees:) in tuple form")
struct WhenGuaranteesTupleTests {
    @Test("the values come as a tuple, in order, once all are fulfilled")
    func tupleOfValues() async {
        // Given
        let (name, resolveName) = Guarantee<String>.pending()
        let count = Guarantee.value(3)

        // When
        let both = when(guarantees: name, count)
        let pendingBefore = both.isPending
        resolveName("melodies")
        let (gotName, gotCount) = await both.value

        // Then
        #expect(pendingBefore)
        #expect(gotName == "melodies")
        #expect(gotCount == 3)
    }

    @Test("guarantees of nothing still give a guarantee of nothing")
    func voidGuarantees() async {
        // When
        let all = when(guarantees: Guarantee.value(()), Guarantee.value(()))

        // Then
        #expect("\(type(of: all))" == "Guarantee<()>")
        await all.value
    }
}
