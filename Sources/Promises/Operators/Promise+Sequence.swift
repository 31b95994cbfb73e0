// The sequence helpers PromiseKit users reach for: each is `map` or `then` over a promise of a
// sequence, named for what it does to the elements. Each comes in the two usual forms: on a queue
// with `on:` (a `@Sendable` closure), or on the main actor without it.

extension Promise where Value: Sequence, Value.Element: Sendable {
    /// The elements, each transformed on `queue`.
    @inlinable
    public func mapValues<NewElement>(
        on queue: some Dispatcher, _ transform: @escaping @Sendable (Value.Element) throws -> NewElement
    ) -> Promise<[NewElement]> {
        map(on: queue) { try $0.map(transform) }
    }

    /// The elements, each transformed on the main actor.
    @inlinable
    public func mapValues<NewElement>(
        _ transform: @escaping @MainActor (Value.Element) throws -> NewElement
    ) -> Promise<[NewElement]> {
        map { try $0.map(transform) }
    }

    /// The elements, each turned into a sequence on `queue`, joined.
    @inlinable
    public func flatMapValues<Segment: Sequence & SendableMetatype>(
        on queue: some Dispatcher, _ transform: @escaping @Sendable (Value.Element) throws -> Segment
    ) -> Promise<[Segment.Element]> where Segment.Element: Sendable {
        map(on: queue) { try $0.flatMap(transform) }
    }

    /// The elements, each turned into a sequence on the main actor, joined.
    @inlinable
    public func flatMapValues<Segment: Sequence & SendableMetatype>(
        _ transform: @escaping @MainActor (Value.Element) throws -> Segment
    ) -> Promise<[Segment.Element]> where Segment.Element: Sendable {
        map { try $0.flatMap(transform) }
    }

    /// The elements transformed on `queue`, without those it turns into `nil`.
    @inlinable
    public func compactMapValues<NewElement>(
        on queue: some Dispatcher, _ transform: @escaping @Sendable (Value.Element) throws -> NewElement?
    ) -> Promise<[NewElement]> {
        map(on: queue) { try $0.compactMap(transform) }
    }

    /// The elements transformed on the main actor, without those it turns into `nil`.
    @inlinable
    public func compactMapValues<NewElement>(
        _ transform: @escaping @MainActor (Value.Element) throws -> NewElement?
    ) -> Promise<[NewElement]> {
        map { try $0.compactMap(transform) }
    }

    /// The elements `isIncluded` keeps, judged on `queue`.
    @inlinable
    public func filterValues(
        on queue: some Dispatcher, _ isIncluded: @escaping @Sendable (Value.Element) -> Bool
    ) -> Promise<[Value.Element]> {
        map(on: queue) { $0.filter(isIncluded) }
    }

    /// The elements `isIncluded` keeps, judged on the main actor.
    @inlinable
    public func filterValues(
        _ isIncluded: @escaping @MainActor (Value.Element) -> Bool
    ) -> Promise<[Value.Element]> {
        map { $0.filter(isIncluded) }
    }

    /// Each element turned into a promise on `queue`, all awaited: their values, in order.
    @inlinable
    public func thenMap<NewElement>(
        on queue: some Dispatcher,
        _ transform: @escaping @Sendable (Value.Element) throws -> Promise<NewElement>
    ) -> Promise<[NewElement]> {
        then(on: queue) { when(fulfilled: try $0.map(transform)) }
    }

    /// Each element turned into a promise on the main actor, all awaited: their values, in order.
    @inlinable
    public func thenMap<NewElement>(
        _ transform: @escaping @MainActor (Value.Element) throws -> Promise<NewElement>
    ) -> Promise<[NewElement]> {
        then { when(fulfilled: try $0.map(transform)) }
    }

    /// Each element turned into a promise of a sequence on `queue`, all awaited, joined.
    @inlinable
    public func thenFlatMap<Segment: Sequence & Sendable>(
        on queue: some Dispatcher,
        _ transform: @escaping @Sendable (Value.Element) throws -> Promise<Segment>
    ) -> Promise<[Segment.Element]> where Segment.Element: Sendable {
        thenMap(on: queue, transform).map(on: .inline) { $0.flatMap { $0 } }
    }

    /// Each element turned into a promise of a sequence on the main actor, all awaited, joined.
    @inlinable
    public func thenFlatMap<Segment: Sequence & Sendable>(
        _ transform: @escaping @MainActor (Value.Element) throws -> Promise<Segment>
    ) -> Promise<[Segment.Element]> where Segment.Element: Sendable {
        thenMap(transform).map(on: .inline) { $0.flatMap { $0 } }
    }

    /// The first element; rejects with ``PromiseError/emptySequence`` when there is none.
    @inlinable
    public var firstValue: Promise<Value.Element> {
        map(on: .inline) { values in
            guard let first = values.first(where: { _ in true }) else { throw PromiseError.emptySequence }
            return first
        }
    }
}

extension Promise where Value: BidirectionalCollection, Value.Element: Sendable {
    /// The last element; rejects with ``PromiseError/emptySequence`` when there is none.
    @inlinable
    public var lastValue: Promise<Value.Element> {
        map(on: .inline) { values in
            guard let last = values.last else { throw PromiseError.emptySequence }
            return last
        }
    }
}

extension Promise where Value: Sequence, Value.Element: Comparable & Sendable {
    /// The elements in ascending order.
    ///
    /// - Parameter queue: Where the sorting runs; inline by default.
    /// - Returns: A promise of the sorted elements.
    @inlinable
    public func sortedValues(on queue: some Dispatcher = .inline) -> Promise<[Value.Element]> {
        map(on: queue) { $0.sorted() }
    }
}

extension Promise where Value: Sequence, Value.Element: Sendable {
    /// The elements in the order `areInIncreasingOrder` gives, compared on `queue`.
    ///
    /// - Parameters:
    ///   - queue: Where the sorting runs.
    ///   - areInIncreasingOrder: Whether its first argument goes before its second.
    /// - Returns: A promise of the sorted elements.
    @inlinable
    public func sortedValues(
        on queue: some Dispatcher,
        _ areInIncreasingOrder: @escaping @Sendable (Value.Element, Value.Element) -> Bool
    ) -> Promise<[Value.Element]> {
        map(on: queue) { $0.sorted(by: areInIncreasingOrder) }
    }

    /// The elements in the order `areInIncreasingOrder` gives, compared on the main actor.
    ///
    /// - Parameter areInIncreasingOrder: Whether its first argument goes before its second.
    /// - Returns: A promise of the sorted elements.
    @inlinable
    public func sortedValues(
        _ areInIncreasingOrder: @escaping @MainActor (Value.Element, Value.Element) -> Bool
    ) -> Promise<[Value.Element]> {
        map { $0.sorted(by: areInIncreasingOrder) }
    }
}
