import Testing

@testable import Promises

/// The sequence helpers on a guarantee of a sequence: closures that cannot fail keep a guarantee.
@Suite("Guarantee sequence helpers")
struct GuaranteeSequenceTests {
    let numbers = Guarantee.value([3, 1, 2])

    @Test("mapValues, compactMapValues and filterValues transform the elements")
    func transforms() async {
        // When
        let doubled = numbers.mapValues(on: .global()) { $0 * 2 }
        let odd = numbers.compactMapValues(on: .global()) { $0 % 2 == 1 ? "\($0)" : nil }
        let large = numbers.filterValues(on: .global()) { $0 > 1 }

        // Then
        #expect(await doubled.value == [6, 2, 4])
        #expect(await odd.value == ["3", "1"])
        #expect(await large.value == [3, 2])
    }

    @Test("flatMapValues joins the sequences each element makes")
    func flatMaps() async {
        // When
        let repeated = numbers.flatMapValues(on: .global()) { Array(repeating: $0, count: $0) }

        // Then
        #expect(await repeated.value == [3, 3, 3, 1, 2, 2])
    }

    @Test("thenMap and thenFlatMap wait for each element's guarantee and keep the order")
    func thenMaps() async {
        // When
        let mapped = numbers.thenMap(on: .global()) { value in
            after(seconds: 0.001 * Double(value)).map(on: .inline) { value }
        }
        let joined = numbers.thenFlatMap(on: .global()) { Guarantee.value([$0, $0]) }

        // Then
        #expect(await mapped.value == [3, 1, 2])
        #expect(await joined.value == [3, 3, 1, 1, 2, 2])
    }

    @Test("sortedValues sorts in ascending order, and every helper keeps a guarantee")
    func sortsAndKeepsGuarantee() async {
        // When
        let sorted = numbers.sortedValues()

        // Then
        #expect("\(type(of: sorted))" == "Guarantee<Array<Int>>")
        #expect(await sorted.value == [1, 2, 3])
    }

    @Test("sortedValues with an order: descending on the main actor, and on a queue, still a guarantee")
    func sortsByAnOrder() async {
        // When
        let descending = numbers.sortedValues { $0 > $1 }
        let onQueue = numbers.sortedValues(on: .global()) { $0 > $1 }

        // Then
        #expect("\(type(of: descending))" == "Guarantee<Array<Int>>")
        #expect(await descending.value == [3, 2, 1])
        #expect(await onQueue.value == [3, 2, 1])
    }

    @Test("on the main actor, the helpers run there")
    @MainActor
    func mainActor() async {
        // When
        let mapped = numbers.mapValues { $0 + 1 }.filterValues { $0 > 2 }.thenMap { Guarantee.value($0 * 10) }

        // Then
        #expect(await mapped.value == [40, 30])
    }
}
