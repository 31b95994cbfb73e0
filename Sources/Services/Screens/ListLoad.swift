public import Promises

/// The load sequence every list screen runs, in one place: the spinner on, the data (twice with
/// ``CachePolicy/cacheThenNetwork``: the copy, then the fresh data), or the error, then the
/// spinner off.
///
/// A presenter gives it what its view does at each step and the service call to make; the promise
/// it returns settles after the view was told the last time, which is what a test waits for.
///
/// ```swift
/// func fetchRecipes() -> Promise<[Recipe]> {
///     ListLoad<[Recipe]>(
///         loading: { self.view?.showLoading($0) },
///         show: { fetched, refreshing in self.view?.show(fetched.value, notice: self.notice.text(for: fetched, refreshing: refreshing)) },
///         fail: { self.view?.showError($0.userMessage) }
///     ).run { showingCopy in self.service.recipes(policy: self.cachePolicy, showingCopy: showingCopy) }
/// }
/// ```
@MainActor
public struct ListLoad<Value: Sendable>: Sendable {
    /// Turns the view's loading indicator on (`true`) or off (`false`).
    public let loading: @MainActor (Bool) -> Void
    /// Shows the data; `refreshing` is true for a copy shown while fresh data is on its way.
    public let show: @MainActor (Fetched<Value>, _ refreshing: Bool) -> Void
    /// Shows why the data could not be loaded; not called for a cancellation.
    public let fail: @MainActor (ServiceRequestError) -> Void

    /// Describes what the view does at each step.
    ///
    /// - Parameters:
    ///   - loading: Turns the loading indicator on or off; nothing by default.
    ///   - show: Shows the data, saying whether it is a copy being refreshed.
    ///   - fail: Shows why the data could not be loaded.
    public init(
        loading: @escaping @MainActor (Bool) -> Void = { _ in },
        show: @escaping @MainActor (Fetched<Value>, _ refreshing: Bool) -> Void,
        fail: @escaping @MainActor (ServiceRequestError) -> Void
    ) {
        self.loading = loading
        self.show = show
        self.fail = fail
    }

    /// Runs the sequence around `fetch`.
    ///
    /// - Parameter fetch: Asks the service, handing on the function that shows a copy early (as
    ///   `NetworkFallback.fetch(policy:showingCopy:_:)` takes it).
    /// - Returns: A promise of the data shown last, or the ``ServiceRequestError`` shown; it settles
    ///   after the view was told.
    public func run(
        _ fetch: (_ showingCopy: @escaping @Sendable (Fetched<Value>) -> Void) -> Promise<Fetched<Value>>
    ) -> Promise<Value> {
        loading(true)
        let show = show
        return fetch { copy in
            // Shown on the main queue, where the fresh answer is shown after it.
            Guarantee.value(copy).done { show($0, true) }
        }
        .map { fetched in
            show(fetched, false)
            return fetched.value
        }
        .recover(policy: .allErrors) { [fail] error -> Promise<Value> in
            let requestError = ServiceRequestError(error)
            if !requestError.isCancelled { fail(requestError) }
            throw requestError
        }
        .ensure { [loading] in loading(false) }
    }
}
