public import Melodies
public import Services

/// A ``MelodyListView`` that remembers what it was told to show, for a presenter's test.
@MainActor
public final class MelodyListViewControllerMock: MelodyListViewController {
    /// The presenter, kept as a view controller keeps its own.
    public var presenter: MelodyListPresenterImp?
    /// The melodies last shown, or `nil` if none were.
    public var shownMelodies: [Melody]?
    /// The error last shown, or `nil` if none was.
    public var shownError: ServiceRequestError?

    /// Makes a view that has shown nothing yet.
    public init() {}

    /// Remembers the melodies.
    ///
    /// - Parameter melodies: What the presenter shows.
    public func showMelodies(melodies: [Melody]) {
        shownMelodies = melodies
    }

    /// Remembers the error.
    ///
    /// - Parameter error: What the presenter shows.
    public func showLoadError(error: ServiceRequestError) {
        shownError = error
    }
}
