public import Promises

extension ListLoad where Value: Equatable {
    /// Runs the load sequence (``run(_:)``), then keeps the view following the data: each value
    /// `observe` delivers afterwards is shown, unless it is what the view already shows. A value
    /// that arrives while the load runs waits for it, and is shown once the load was shown if it
    /// differs (a change the load's read missed is not lost until the next one).
    ///
    /// ```swift
    /// let (loaded, observation) = ListLoad<[Recipe]>(show: ..., fail: ...).watch { showingCopy in
    ///     service.recipes(policy: policy, showingCopy: showingCopy)
    /// } following: { changed in
    ///     service.observeRecipes(changed)
    /// }
    /// self.observation = observation  // for as long as the screen is shown
    /// ```
    ///
    /// - Parameters:
    ///   - fetch: Asks the service, as for ``run(_:)``.
    ///   - observe: Starts observing the stored data, handing each value (with its source) to the
    ///     function it is given, from any thread; `nil` when there is nothing to observe.
    /// - Returns: The load's promise (as ``run(_:)`` gives it) and the observation.
    public func watch(
        _ fetch: (_ showingCopy: @escaping @Sendable (Fetched<Value>) -> Void) -> Promise<Fetched<Value>>,
        following observe: (_ changed: @escaping @Sendable (Fetched<Value>) -> Void) -> ObservationHandle?
    ) -> (loaded: Promise<Value>, observation: ObservationHandle?) {
        let state = WatchState<Value>()
        let show = show
        let load = ListLoad(
            loading: { loading in
                state.loading = loading
                self.loading(loading)
                // What changed while the load ran is shown after it.
                if !loading, let waiting = state.waiting, waiting.value != state.shown {
                    state.shown = waiting.value
                    show(waiting, false)
                }
                state.waiting = nil
            },
            show: { fetched, refreshing in
                state.shown = fetched.value
                show(fetched, refreshing)
            },
            fail: fail)
        let loaded = load.run(fetch)
        let observation = observe { fetched in
            Guarantee.value(fetched).done { fetched in
                guard !state.loading else {
                    state.waiting = fetched
                    return
                }
                guard state.shown != fetched.value else { return }
                state.shown = fetched.value
                show(fetched, false)
            }
        }
        return (loaded, observation)
    }
}

/// What a watching list shows, and whether its load still runs.
@MainActor
private final class WatchState<Value: Equatable & Sendable> {
    var loading = true
    var shown: Value?
    /// The last value observed while the load ran.
    var waiting: Fetched<Value>?
}
