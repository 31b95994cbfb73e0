extension Promise {
    /// Forgets the value, keeping only whether and how the promise settled.
    ///
    /// - Returns: A promise fulfilled with `()` when this one is fulfilled, or rejected like it.
    @inlinable
    public func asVoid() -> Promise<Void> {
        derive { next in
            { resolution in
                switch resolution {
                case .fulfilled: next.settle(.fulfilled(()))
                case .rejected(let error, let handled): next.settle(.rejected(error, handled: handled))
                }
            }
        }
    }
}
