/// The callbacks waiting on a pending promise, in registration order.
///
/// Most promises have exactly one handler, so the first is stored inline and an array is only
/// allocated for the second.
@usableFromInline
enum Handlers<Value: Sendable>: Sendable {
    @usableFromInline
    typealias Handler = @Sendable (Resolution<Value>) -> Void

    case none
    case one(Entry)
    case many([Entry])

    /// One handler: a closure, or one member of a gathering such as `when`, which waits on many
    /// promises with one object instead of one closure per promise.
    @usableFromInline
    enum Entry: Sendable {
        case closure(Handler)
        case member(Gathering<Value>, index: Int)

        @inlinable
        func callAsFunction(_ resolution: Resolution<Value>) {
            switch self {
            case .closure(let handler): handler(resolution)
            case .member(let gathering, let index): gathering.receive(resolution, at: index)
            }
        }
    }

    @inlinable
    var isEmpty: Bool {
        if case .none = self { return true }
        return false
    }

    @inlinable
    mutating func append(_ entry: Entry) {
        switch self {
        case .none:
            self = .one(entry)
        case .one(let first):
            self = .many([first, entry])
        case .many(var all):
            self = .none  // drop our reference so the append does not copy the array
            all.append(entry)
            self = .many(all)
        }
    }

    @inlinable
    func run(_ resolution: Resolution<Value>) {
        switch self {
        case .none:
            break
        case .one(let entry):
            entry(resolution)
        case .many(let all):
            for entry in all { entry(resolution) }
        }
    }
}

/// An object that waits on many promises of the same type at once, told which one settled by its
/// index: `when` registers one of these on every promise instead of a closure per promise.
@usableFromInline
class Gathering<Value: Sendable>: @unchecked Sendable {
    // `@unchecked Sendable` is sound: this base class has no state; every subclass is final and
    // keeps its mutable state behind a lock.

    @inlinable
    init() {}

    /// Called once for each promise the gathering waits on, when it settles.
    ///
    /// - Parameters:
    ///   - resolution: How the promise settled.
    ///   - index: The promise's position among the ones the gathering waits on.
    @inlinable
    func receive(_ resolution: Resolution<Value>, at index: Int) {
        preconditionFailure("\(Self.self) must override receive(_:at:)")
    }
}
