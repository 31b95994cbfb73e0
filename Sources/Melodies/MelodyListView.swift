public import Services

/// The melody list screen, as its presenter sees it: a passive view that shows what it is told.
///
/// Only the first two methods are required; the others have empty default
/// implementations, so a view adopts them when it has somewhere to show them.
@MainActor
public protocol MelodyListView: AnyObject, Sendable {
    /// Shows the melodies.
    ///
    /// - Parameter melodies: The melodies, in display order.
    func showMelodies(melodies: [Melody])

    /// Shows that the melodies could not be loaded.
    ///
    /// - Parameter error: Why.
    func showLoadError(error: ServiceRequestError)

    /// Shows or hides that loading is under way.
    ///
    /// - Parameter isLoading: True when a fetch starts, false when it ends.
    func showLoading(_ isLoading: Bool)

    /// Shows the melodies as formatted rows (durations as `3:07`).
    ///
    /// - Parameter rows: One row per melody, in display order.
    func showMelodyRows(_ rows: [MelodyRow])

    /// Shows where the list comes from: `nil` for fresh data, or a sentence saying it is the
    /// offline copy and how old it is.
    ///
    /// - Parameter notice: The sentence, or `nil`.
    func showSourceNotice(_ notice: String?)

    /// Shows why loading failed, in words for the user.
    ///
    /// - Parameter message: The sentence.
    func showErrorMessage(_ message: String)
}

extension MelodyListView {
    /// Does nothing: a view without a loading indicator.
    ///
    /// - Parameter isLoading: Ignored.
    public func showLoading(_ isLoading: Bool) {}

    /// Does nothing: a view that shows ``Melody`` values itself.
    ///
    /// - Parameter rows: Ignored.
    public func showMelodyRows(_ rows: [MelodyRow]) {}

    /// Does nothing: a view without an offline banner.
    ///
    /// - Parameter notice: Ignored.
    public func showSourceNotice(_ notice: String?) {}

    /// Does nothing: a view that shows ``showLoadError(error:)`` itself.
    ///
    /// - Parameter message: Ignored.
    public func showErrorMessage(_ message: String) {}
}

/// The name an app's view controller usually adopts: the same protocol as ``MelodyListView``.
public typealias MelodyListViewController = MelodyListView
