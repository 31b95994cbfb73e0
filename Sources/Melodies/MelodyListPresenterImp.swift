public import Services

/// The melody list presenter an app uses.
///
/// It holds its view weakly: the view holds the presenter (`view.presenter = presenter`), and the
/// presenter must not keep a closed screen alive.
@MainActor
public final class MelodyListPresenterImp: MelodyListPresenter {
    /// The screen, held weakly.
    public weak var view: (any MelodyListView)?
    /// Where melodies come from.
    public let melodyService: any MelodyService
    /// Formats melodies for the view; made once.
    public let formatter: MelodyListFormatter
    /// How the list is read.
    public let cachePolicy: CachePolicy

    /// Makes a presenter.
    ///
    /// - Parameters:
    ///   - melodyService: Where melodies come from.
    ///   - view: The screen.
    ///   - formatter: Formats melodies for the view; for the user's locale by default.
    ///   - cachePolicy: How the list is read; the API first by default (see `CachePolicy`).
    public init(
        melodyService: any MelodyService, view: (any MelodyListView)?,
        formatter: MelodyListFormatter = MelodyListFormatter(), cachePolicy: CachePolicy = .networkFirst
    ) {
        self.melodyService = melodyService
        self.view = view
        self.formatter = formatter
        self.cachePolicy = cachePolicy
    }
}
