extension KeyedDecodingContainer {
    /// A number that must not be below zero, such as an amount or a count.
    func decodeNonNegative<Number: Decodable & Comparable & ExpressibleByIntegerLiteral>(
        _ type: Number.Type, forKey key: Key
    ) throws -> Number {
        let value = try decode(type, forKey: key)
        guard value >= 0 else {
            throw DecodingError.dataCorruptedError(
                forKey: key, in: self, debugDescription: "\(key.stringValue) is \(value), below zero")
        }
        return value
    }
}
