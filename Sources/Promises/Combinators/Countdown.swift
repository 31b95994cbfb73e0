/// Collects one element per input promise, in input order, and hands them over once all arrived.
@usableFromInline
struct Countdown<Element: Sendable>: Sendable {
    @usableFromInline
    let state: Locked<(elements: [Element?], remaining: Int)>

    @inlinable
    init(count: Int) {
        state = Locked((Array(repeating: nil, count: count), count))
    }

    /// Stores `element`; returns every element once it was the last one missing.
    @inlinable
    func record(_ element: Element, at index: Int) -> [Element]? {
        state.withLock { state in
            guard state.elements[index] == nil else { return nil }
            state.elements[index] = element
            state.remaining -= 1
            guard state.remaining == 0 else { return nil }
            return state.elements.map { element in
                guard let element else { preconditionFailure("Countdown finished with a gap") }
                return element
            }
        }
    }
}
