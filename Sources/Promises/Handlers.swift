/// The callbacks waiting on a pending promise, in registration order.
///
/// Most promises have exactly one handler, so the first is stored inline and an array is only
/// allocated for the second.
@usableFromInline
enum Handlers<Value: Sendable>: Sendable {
    @usableFromInline
    typealias Handler = @Sendable (Resolution<Value>) -> Void

    case none
    case one(Handler)
    case many([Handler])

    @inlinable
    var isEmpty: Bool {
        if case .none = self { return true }
        return false
    }

    @inlinable
    mutating func append(_ handler: @escaping Handler) {
        switch self {
        case .none:
            self = .one(handler)
        case .one(let first):
            self = .many([first, handler])
        case .many(var all):
            self = .none  // drop our reference so the append does not copy the array
            all.append(handler)
            self = .many(all)
        }
    }

    @inlinable
    func run(_ resolution: Resolution<Value>) {
        switch self {
        case .none:
            break
        case .one(let handler):
            handler(resolution)
        case .many(let all):
            for handler in all { handler(resolution) }
        }
    }
}
