import Testing

@testable import Promises

/// PromiseKit's spellings of `when` over guarantees: an array under `guarantees:`, and guarantees
/// given one by one without a label.
@Suite("when over guarantees, as PromiseKit spells it")
struct WhenGuaranteesTests {
    @Test("when(guarantees:) over an array gives the values in order, once all are fulfilled")
    func arrayOfValues() async {
        // Given
        let (late, resolveLate) = Guarantee<Int>.pending()
        let guarantees = [Guarantee.value(1), late, Guarantee.value(3)]

        // When
        let all = when(guarantees: guarantees)
        let pendingBefore = all.isPending
        resolveLate(2)

        // Then
        #expect(pendingBefore)
        #expect(await all.value == [1, 2, 3])
    }

    @Test("when(a, b, c) without a label gives the values in order, once all are fulfilled")
    func unlabelledValues() async {
        // Given
        let (late, resolveLate) = Guarantee<Int>.pending()

        // When
        let all = when(Guarantee.value(4), late, Guarantee.value(6))
        let pendingBefore = all.isPending
        resolveLate(5)

        // Then
        #expect(pendingBefore)
        #expect(await all.value == [4, 5, 6])
    }

    @Test("when(a, b) over guarantees of nothing is a guarantee of nothing, fulfilled once both are")
    func unlabelledVoid() async {
        // Given
        let (late, resolveLate) = Guarantee<Void>.pending()

        // When
        let all = when(Guarantee.value(()), late)
        let pendingBefore = all.isPending
        resolveLate(())
        await all.value

        // Then
        #expect(pendingBefore)
        #expect("\(type(of: all))" == "Guarantee<()>")
    }

    @Test("when(fulfilled: a, b) over guarantees of nothing is a promise of nothing, as in PromiseKit")
    func fulfilledVoidGuarantees() async throws {
        // Given
        let (late, resolveLate) = Guarantee<Void>.pending()

        // When
        let all = when(fulfilled: Guarantee(), late)
        let pendingBefore = all.isPending
        resolveLate(())
        try await all.value

        // Then
        #expect(pendingBefore)
        #expect("\(type(of: all))" == "Promise<()>")
    }
}
