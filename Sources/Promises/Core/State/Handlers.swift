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

    /// One handler: a closure; the promise of a step such as `map`, which is its own handler; or
    /// one member of a gathering such as `when`, which waits on many promises with one object
    /// instead of one closure per promise.
    @usableFromInline
    enum Entry: Sendable {
        case closure(Handler)
        case step(StepHandler<Value>)
        case member(Gathering<Value>, index: Int)

        @inlinable
        consuming func callAsFunction(_ resolution: Resolution<Value>) {
            switch consume self {
            case .closure(let handler): handler(resolution)
            case .step(let input): input(resolution)
            case .member(let gathering, let index): gathering.receive(resolution, index)
            }
        }
    }

    /// The handlers of `entries`, in order.
    @inlinable
    init(_ entries: [Entry]) {
        switch entries.count {
        case 0: self = .none
        case 1: self = .one(entries[0])
        default: self = .many(entries)
        }
    }

    /// How many handlers there are.
    var count: Int {
        switch self {
        case .none: 0
        case .one: 1
        case .many(let all): all.count
        }
    }

    @inlinable
    var isEmpty: Bool {
        if case .none = self { return true }
        return false
    }

    @inlinable
    mutating func append(_ entry: consuming Entry) {
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
    consuming func run(_ resolution: Resolution<Value>) {
        switch consume self {
        case .none:
            break
        case .one(let entry):
            entry(resolution)
        case .many(let all):
            for entry in all { entry(resolution) }
        }
    }
}
