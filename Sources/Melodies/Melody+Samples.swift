extension Melody {
    /// A small catalogue of well-known pieces, the same every time: for previews, demos and the
    /// sample API (`Examples/api`), and the mocks tests use.
    public static let samples: [Melody] = [
        Melody(
            id: 1, title: "Clair de Lune", artist: "Claude Debussy", album: "Suite bergamasque",
            durationSeconds: 302),
        Melody(
            id: 2, title: "Gymnopédie No. 1", artist: "Erik Satie", album: "Trois Gymnopédies",
            durationSeconds: 187),
        Melody(id: 3, title: "So What", artist: "Miles Davis", album: "Kind of Blue", durationSeconds: 562),
        Melody(
            id: 4, title: "Blue in Green", artist: "Miles Davis", album: "Kind of Blue", durationSeconds: 337),
        Melody(
            id: 5, title: "Take Five", artist: "The Dave Brubeck Quartet", album: "Time Out",
            durationSeconds: 324),
        Melody(id: 6, title: "River", artist: "Joni Mitchell", album: "Blue", durationSeconds: 244),
        Melody(id: 7, title: "Hallelujah", artist: "Jeff Buckley", album: "Grace", durationSeconds: 413),
        Melody(id: 8, title: "Teardrop", artist: "Massive Attack", album: "Mezzanine", durationSeconds: 330),
        Melody(
            id: 9, title: "Svefn-g-englar", artist: "Sigur Rós", album: "Ágætis byrjun", durationSeconds: 604),
        Melody(
            id: 10, title: "Windowlicker", artist: "Aphex Twin", album: "Windowlicker", durationSeconds: 367),
        Melody(id: 11, title: "Avril 14th", artist: "Aphex Twin", album: "Drukqs", durationSeconds: 125),
        Melody(
            id: 12, title: "The Köln Concert, Part I", artist: "Keith Jarrett", album: "The Köln Concert",
            durationSeconds: 1_560),
    ]
}
