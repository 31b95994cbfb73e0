// The sequence helpers of `Promise+Sequence.swift`, on a guarantee of a sequence: with closures
// that cannot fail, what comes out is a guarantee again. A closure that may throw goes through
// `asPromise()` first.

extension Guarantee where Value: Sequence, Value.Element: Sendable {
    /// The elements, each transformed on `queue`.
    @inlinable
    public func mapValues<NewElement>(
        on queue: some Dispatcher, _ transform: @escaping @Sendable (Value.Element) -> NewElement
    ) -> Guarantee<[NewElement]> {
        map(on: queue) { $0.map(transform) }
    }

    /// The elements, each transformed on the main actor.
    @inlinable
    public func mapValues<NewElement>(
        _ transform: @escaping @MainActor (Value.Element) -> NewElement
    ) -> Guarantee<[NewElement]> {
        map { $0.map(transform) }
    }

    /// The elements, each turned into a sequence on `queue`, joined.
    @inlinable
    public func flatMapValues<Segment: Sequence & SendableMetatype>(
        on queue: some Dispatcher, _ transform: @escaping @Sendable (Value.Element) -> Segment
    ) -> Guarantee<[Segment.Element]> where Segment.Element: Sendable {
        map(on: queue) { $0.flatMap(transform) }
    }

    /// The elements, each turned into a sequence on the main actor, joined.
    @inlinable
    public func flatMapValues<Segment: Sequence & SendableMetatype>(
        _ transform: @escaping @MainActor (Value.Element) -> Segment
    ) -> Guarantee<[Segment.Element]> where Segment.Element: Sendable {
        map { $0.flatMap(transform) }
    }

    /// The elements transformed on `queue`, without those it turns into `nil`.
    @inlinable
    public func compactMapValues<NewElement>(
        on queue: some Dispatcher, _ transform: @escaping @Sendable (Value.Element) -> NewElement?
    ) -> Guarantee<[NewElement]> {
        map(on: queue) { $0.compactMap(transform) }
    }

    /// The elements transformed on the main actor, without those it turns into `nil`.
    @inlinable
    public func compactMapValues<NewElement>(
        _ transform: @escaping @MainActor (Value.Element) -> NewElement?
    ) -> Guarantee<[NewElement]> {
        map { $0.compactMap(transform) }
    }

    /// The elements `isIncluded` keeps, judged on `queue`.
    @inlinable
    public func filterValues(
        on queue: some Dispatcher, _ isIncluded: @escaping @Sendable (Value.Element) -> Bool
    ) -> Guarantee<[Value.Element]> {
        map(on: queue) { $0.filter(isIncluded) }
    }

    /// The elements `isIncluded` keeps, judged on the main actor.
    @inlinable
    public func filterValues(
        _ isIncluded: @escaping @MainActor (Value.Element) -> Bool
    ) -> Guarantee<[Value.Element]> {
        map { $0.filter(isIncluded) }
    }

    /// Each element turned into a guarantee on `queue`, all awaited: their values, in order.
    @inlinable
    public func thenMap<NewElement>(
        on queue: some Dispatcher,
        _ transform: @escaping @Sendable (Value.Element) -> Guarantee<NewElement>
    ) -> Guarantee<[NewElement]> {
        then(on: queue) { when(fulfilled: $0.map(transform)) }
    }

    /// Each element turned into a guarantee on the main actor, all awaited: their values, in order.
    @inlinable
    public func thenMap<NewElement>(
        _ transform: @escaping @MainActor (Value.Element) -> Guarantee<NewElement>
    ) -> Guarantee<[NewElement]> {
        then { when(fulfilled: $0.map(transform)) }
    }

    /// Each element turned into a guarantee of a sequence on `queue`, all awaited, joined.
    @inlinable
    public func thenFlatMap<Segment: Sequence & Sendable>(
        on queue: some Dispatcher,
        _ transform: @escaping @Sendable (Value.Element) -> Guarantee<Segment>
    ) -> Guarantee<[Segment.Element]> where Segment.Element: Sendable {
        thenMap(on: queue, transform).map(on: .inline) { $0.flatMap { $0 } }
    }

    /// Each element turned into a guarantee of a sequence on the main actor, all awaited, joined.
    @inlinable
    public func thenFlatMap<Segment: Sequence & Sendable>(
        _ transform: @escaping @MainActor (Value.Element) -> Guarantee<Segment>
    ) -> Guarantee<[Segment.Element]> where Segment.Element: Sendable {
        thenMap(transform).map(on: .inline) { $0.flatMap { $0 } }
    }
}

extension Guarantee where Value: Sequence, Value.Element: Comparable & Sendable {
    /// The elements in ascending order.
    ///
    /// - Parameter queue: Where the sorting runs; inline by default.
    /// - Returns: A guarantee of the sorted elements.
    @inlinable
    public func sortedValues(on queue: some Dispatcher = .inline) -> Guarantee<[Value.Element]> {
        map(on: queue) { $0.sorted() }
    }
}

extension Guarantee where Value: Sequence, Value.Element: Sendable {
    /// The elements in the order `areInIncreasingOrder` gives, compared on `queue`.
    ///
    /// - Parameters:
    ///   - queue: Where the sorting runs.
    ///   - areInIncreasingOrder: Whether its first argument goes before its second.
    /// - Returns: A guarantee of the sorted elements.
    @inlinable
    public func sortedValues(
        on queue: some Dispatcher,
        _ areInIncreasingOrder: @escaping @Sendable (Value.Element, Value.Element) -> Bool
    ) -> Guarantee<[Value.Element]> {
        map(on: queue) { $0.sorted(by: areInIncreasingOrder) }
    }

    /// The elements in the order `areInIncreasingOrder` gives, compared on the main actor.
    ///
    /// - Parameter areInIncreasingOrder: Whether its first argument goes before its second.
    /// - Returns: A guarantee of the sorted elements.
    @inlinable
    public func sortedValues(
        _ areInIncreasingOrder: @escaping @MainActor (Value.Element, Value.Element) -> Bool
    ) -> Guarantee<[Value.Element]> {
        map { $0.sorted(by: areInIncreasingOrder) }
    }
}
