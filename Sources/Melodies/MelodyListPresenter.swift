public import Promises
import Services

/// Fetches melodies and tells its view what to show.
///
/// ``fetchMelodies()`` is provided, as in the seed, so a presenter only supplies its view and its
/// service.
@MainActor
public protocol MelodyListPresenter: AnyObject, Sendable {
    /// The screen; held weakly by implementations, since the view owns its presenter.
    var view: (any MelodyListView)? { get }
    /// Where melodies come from.
    var melodyService: any MelodyService { get }
    /// Formats melodies for the view.
    var formatter: MelodyListFormatter { get }

    /// Fetches the melodies and shows them, or the error.
    ///
    /// - Returns: A promise that settles after the view was told: fulfilled with the melodies shown,
    ///   or rejected with the ``ServiceRequestError`` shown.
    func fetchMelodies() -> Promise<[Melody]>
}

extension MelodyListPresenter {
    /// A formatter for the user's locale and time zone, made on each use: store one in your
    /// presenter to make it once.
    public var formatter: MelodyListFormatter {
        MelodyListFormatter()
    }

    /// Fetches the melodies and tells the view: loading, then the melodies (as values and as
    /// formatted rows) and where they came from, or the error; then loading ended.
    ///
    /// - Returns: A promise that settles after the view was told: fulfilled with the melodies shown,
    ///   or rejected with the ``ServiceRequestError`` shown. A cancellation is not shown.
    public func fetchMelodies() -> Promise<[Melody]> {
        view?.showLoading(true)
        let formatter = formatter
        return melodyService.getMelodiesWithSource()
            .map { fetched in
                self.view?.showMelodies(melodies: fetched.value)
                self.view?.showMelodyRows(formatter.rows(for: fetched.value))
                self.view?.showSourceNotice(formatter.notice(for: fetched.source))
                return fetched.value
            }
            .recover(policy: .allErrors) { error -> Promise<[Melody]> in
                let requestError = ServiceRequestError(error)
                if !requestError.isCancelled {
                    self.view?.showLoadError(error: requestError)
                    self.view?.showErrorMessage(requestError.userMessage)
                }
                throw requestError
            }
            .ensure { self.view?.showLoading(false) }
    }
}
