extension Guarantee where Value == Void {
    /// A guarantee already fulfilled, with nothing: the start of a chain that cannot fail.
    @inlinable
    public init() {
        self = .value(())
    }

    /// A guarantee already fulfilled, with nothing: `Guarantee<Void>.value`, as PromiseKit spells it
    /// beside `Guarantee.value(())`.
    @inlinable
    public static var value: Guarantee<Void> { Guarantee() }
}
