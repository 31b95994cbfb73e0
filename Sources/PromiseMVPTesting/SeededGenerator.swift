/// Random numbers that are the same for the same seed, on every platform and every run: for
/// randomised tests that a failure's seed replays exactly (SplitMix64).
///
/// ```swift
/// var random = SeededGenerator(seed: 2026)
/// let roll = Int.random(in: 0..<6, using: &random)
/// ```
public struct SeededGenerator: RandomNumberGenerator, Sendable {
    private var state: UInt64

    /// Makes the generator of `seed`.
    ///
    /// - Parameter seed: Any number; the same one gives the same sequence.
    public init(seed: UInt64) {
        state = seed
    }

    /// The next number of the sequence.
    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
