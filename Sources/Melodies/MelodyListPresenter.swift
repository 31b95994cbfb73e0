public import Promises
public import Services

/// Fetches melodies and tells its view what to show.
///
/// ``fetchMelodies()`` is provided by an extension, so a presenter only supplies its view and its
/// service.
@MainActor
public protocol MelodyListPresenter: AnyObject, Sendable {
    /// The screen; held weakly by implementations, since the view owns its presenter.
    var view: (any MelodyListView)? { get }
    /// Where melodies come from.
    var melodyService: any MelodyService { get }
    /// Formats melodies for the view.
    var formatter: MelodyListFormatter { get }
    /// How the list is read: see `CachePolicy`; `CachePolicy/networkFirst` by default.
    var cachePolicy: CachePolicy { get }

    /// Fetches the melodies and shows them, or the error.
    ///
    /// - Returns: A promise that settles after the view was told: fulfilled with the melodies shown,
    ///   or rejected with the `ServiceRequestError` shown.
    func fetchMelodies() -> Promise<[Melody]>
}

extension MelodyListPresenter {
    /// A formatter for the user's locale and time zone, made on each use: store one in your
    /// presenter to make it once.
    public var formatter: MelodyListFormatter {
        MelodyListFormatter()
    }

    /// The API first, the offline copy when it cannot answer.
    public var cachePolicy: CachePolicy {
        .networkFirst
    }

    /// Fetches the melodies as ``cachePolicy`` says and tells the view: loading, then the
    /// melodies (as values and as formatted rows) and where they came from, or the error; then
    /// loading ended. With `CachePolicy/cacheThenNetwork` the view is told twice: the offline
    /// copy at once, with a notice that it is being refreshed, then the fresh melodies.
    ///
    /// - Returns: A promise that settles after the view was told the last time: fulfilled with the
    ///   melodies shown, or rejected with the `ServiceRequestError` shown. A cancellation is not
    ///   shown.
    public func fetchMelodies() -> Promise<[Melody]> {
        listLoad.run { showingCopy in
            self.melodyService.getMelodies(policy: self.cachePolicy, showingCopy: showingCopy)
        }
    }

    /// Fetches the melodies as ``fetchMelodies()`` does, then keeps the view following the list
    /// saved on this device: a refresh by another screen or another process on the same file is
    /// shown as it is saved. Keep the observation for as long as the screen is shown.
    ///
    /// - Returns: The fetch's promise and the observation; `nil` when the service keeps no list
    ///   to watch (it is not `MelodiesWatching`).
    public func watchMelodies() -> (loaded: Promise<[Melody]>, observation: ObservationHandle?) {
        let service = melodyService as? any MelodiesWatching
        return listLoad.watch { showingCopy in
            self.melodyService.getMelodies(policy: self.cachePolicy, showingCopy: showingCopy)
        } following: { changed in
            service?.observeMelodies(changed)
        }
    }

    /// The list's load sequence, telling this presenter's view.
    private var listLoad: ListLoad<[Melody]> {
        let formatter = formatter
        return ListLoad<[Melody]>(
            loading: { self.view?.showLoading($0) },
            show: { fetched, refreshing in self.show(fetched, formatter, refreshing: refreshing) },
            fail: { error in
                self.view?.showLoadError(error: error)
                self.view?.showErrorMessage(error.userMessage)
            }
        )
    }

    private func show(_ fetched: Fetched<[Melody]>, _ formatter: MelodyListFormatter, refreshing: Bool) {
        view?.showMelodies(melodies: fetched.value)
        view?.showMelodyRows(formatter.rows(for: fetched.value))
        view?.showSourceNotice(formatter.notice(for: fetched, refreshing: refreshing))
    }
}
