public import Melodies

extension Melody {
    /// A fixed, realistic catalogue for tests and previews: the same melodies, in the same order,
    /// every time.
    ///
    /// - Returns: Eight melodies.
    public static func mocks() -> [Melody] {
        [
            Melody(
                id: 1, title: "Clair de Lune", artist: "Claude Debussy", album: "Suite bergamasque",
                durationSeconds: 302),
            Melody(
                id: 2, title: "Gymnopédie No. 1", artist: "Erik Satie", album: "Gymnopédies",
                durationSeconds: 187),
            Melody(
                id: 3, title: "So What", artist: "Miles Davis", album: "Kind of Blue", durationSeconds: 562),
            Melody(
                id: 4, title: "Blue in Green", artist: "Miles Davis", album: "Kind of Blue",
                durationSeconds: 337),
            Melody(id: 5, title: "River", artist: "Joni Mitchell", album: "Blue", durationSeconds: 244),
            Melody(id: 6, title: "Hallelujah", artist: "Jeff Buckley", album: "Grace", durationSeconds: 413),
            Melody(
                id: 7, title: "Teardrop", artist: "Massive Attack", album: "Mezzanine", durationSeconds: 330),
            Melody(
                id: 8, title: "Svefn-g-englar", artist: "Sigur Rós", album: "Ágætis byrjun",
                durationSeconds: 604),
        ]
    }
}
