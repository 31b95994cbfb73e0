extension Promise: CustomStringConvertible, CustomDebugStringConvertible {
    /// What the promise holds now, as PromiseKit prints it: `Promise(3)`, `Promise(pending)`,
    /// `Promise(rejected: boom)`.
    ///
    /// Printing a rejected promise does not count as handling its error.
    public var description: String {
        describe(as: "Promise", debug: false)
    }

    /// The same, with the value's type and the error's full name: `Promise<Int>(3)`,
    /// `Promise<Int>(rejected: MyError.boom)`.
    public var debugDescription: String {
        describe(as: "Promise", debug: true)
    }

    /// The text of `description` or `debugDescription`, for a promise or a guarantee (`kind`).
    func describe(as kind: String, debug: Bool) -> String {
        let resolution = update({ $0.resolution }, immediate: { .fulfilled($0) })
        let name = debug ? "\(kind)<\(Value.self)>" : kind
        switch resolution {
        case nil:
            return "\(name)(pending)"
        case .fulfilled(let value):
            return "\(name)(\(debug ? String(reflecting: value) : String(describing: value)))"
        case .rejected(let error, _):
            return "\(name)(rejected: \(debug ? String(reflecting: error) : String(describing: error)))"
        }
    }
}
