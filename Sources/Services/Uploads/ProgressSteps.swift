import Promises

/// Which amounts of a file being sent are told: the first a piece's worth (`step`) after the last
/// told, and the whole once. The platform reports what it sent as often as it likes (on Linux a
/// few times a second, however much went between); a screen hears at most one amount a piece.
struct ProgressSteps: Sendable {
    let size: Int64
    let step: Int64
    private let told = Locked<Int64>(0)

    init(size: Int64, step: Int64) {
        (self.size, self.step) = (size, max(1, step))
    }

    /// Whether `sent` bytes are to be told, and if so, that they were.
    func due(_ sent: Int64) -> Bool {
        told.withLock { told in
            guard sent >= told + step || (sent == size && told < size) else { return false }
            told = sent
            return true
        }
    }
}
