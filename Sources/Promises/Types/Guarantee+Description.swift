extension Guarantee: CustomStringConvertible, CustomDebugStringConvertible {
    /// What the guarantee holds now, in the promise's format: `Guarantee(3)`, `Guarantee(…Int)`
    /// while pending. (PromiseKit prints a guarantee as its class name only.)
    public var description: String {
        promise.describe(as: "Guarantee", debug: false)
    }

    /// The same with the value's type and the state's name: `Guarantee<Int>.fulfilled(3)`,
    /// `Guarantee<Int>.pending(handlers: 0)`.
    public var debugDescription: String {
        promise.describe(as: "Guarantee", debug: true)
    }
}
