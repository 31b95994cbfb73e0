extension Guarantee: CustomStringConvertible, CustomDebugStringConvertible {
    /// What the guarantee holds now: `Guarantee(3)` or `Guarantee(pending)`.
    public var description: String {
        promise.describe(as: "Guarantee", debug: false)
    }

    /// The same, with the value's type: `Guarantee<Int>(3)`.
    public var debugDescription: String {
        promise.describe(as: "Guarantee", debug: true)
    }
}
