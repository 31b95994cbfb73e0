public import Orders

extension Order {
    /// The two sample orders CleanStore seeds its memory store with: Amy Apple's (`abc123`, $1.23)
    /// and Bob Battery's (`def456`, $4.56).
    ///
    /// - Returns: Two orders.
    public static func mocks() -> [Order] {
        OrdersMemStore.sampleOrders
    }
}
