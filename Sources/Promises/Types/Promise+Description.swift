extension Promise: CustomStringConvertible, CustomDebugStringConvertible {
    /// What the promise holds now, as PromiseKit prints it: `Promise(3)`, `Promise(…Int)` while
    /// pending, `Promise(boom)` for a rejection.
    ///
    /// Printing a rejected promise does not count as handling its error.
    public var description: String {
        describe(as: "Promise", debug: false)
    }

    /// The same with the value's type, the state's name and the error's type, as PromiseKit
    /// prints it: `Promise<Int>.fulfilled(3)`, `Promise<Int>.pending(handlers: 1)`,
    /// `Promise<Int>.rejected(MyError.boom)`.
    public var debugDescription: String {
        describe(as: "Promise", debug: true)
    }

    /// The text of `description` or `debugDescription`, for a promise or a guarantee (`kind`).
    func describe(as kind: String, debug: Bool) -> String {
        let (resolution, handlers) = update(
            { ($0.resolution, $0.handlerCount) }, immediate: { (.fulfilled($0), 0) })
        switch (resolution, debug) {
        case (nil, false):
            return "\(kind)(…\(Value.self))"
        case (nil, true):
            return "\(kind)<\(Value.self)>.pending(handlers: \(handlers))"
        case (.fulfilled(let value), false):
            return "\(kind)(\(value))"
        case (.fulfilled(let value), true):
            return "\(kind)<\(Value.self)>.fulfilled(\(value))"
        case (.rejected(let error, _), false):
            return "\(kind)(\(error))"
        case (.rejected(let error, _), true):
            return "\(kind)<\(Value.self)>.rejected(\(type(of: error)).\(error))"
        }
    }
}
