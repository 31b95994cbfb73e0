public import Melodies

extension Melody {
    /// The melodies tests use: ``Melody/samples``, the same melodies in the same order every time.
    ///
    /// - Returns: The sample catalogue.
    public static func mocks() -> [Melody] {
        Melody.samples
    }
}
