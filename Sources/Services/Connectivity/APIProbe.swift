import Foundation
public import Promises

/// Connectivity learnt by asking the API: after a sync found it unreachable, a cheap request on
/// the backoff schedule until it answers, whatever it answers. For platforms without a network
/// monitor (Linux), and for the demo.
///
/// Until a sync fails to reach the API it reports nothing, so the scheduler takes the API as
/// reachable; then it reports ``Connectivity/unreachable`` (the scheduler waits, sending nothing)
/// and asks again after 1 s, 2 s, 4 s, ... (full jitter, at most 5 minutes) until any answer
/// comes, when it reports ``Connectivity/reachable`` and the scheduler syncs at once.
public final class APIProbe: ConnectivityMonitor, Sendable {
    private struct State {
        var listener: (@Sendable (Connectivity) -> Void)?
        var probing = false
        var attempt = 0
        var wakeUp: ScheduledWork?
    }
    /// Callbacks run outside the lock.
    private let state = Locked(State())
    private let probe: @Sendable () -> Promise<Void>
    private let clock: any SyncClock
    private let backoff: RetryPolicy

    /// Makes a probe that asks with `probe`.
    ///
    /// - Parameters:
    ///   - clock: What it waits with.
    ///   - backoff: The waits between two questions; ``RetryPolicy/neverGivingUp`` by default.
    ///   - probe: Asks the API; fulfilled or rejected with anything but an "offline" failure
    ///     (``FailureClass/Kind/offline``) means it answered.
    public init(
        clock: any SyncClock = .system, backoff: RetryPolicy = .neverGivingUp,
        probe: @escaping @Sendable () -> Promise<Void>
    ) {
        self.clock = clock
        self.backoff = backoff
        self.probe = probe
    }

    /// Makes a probe that sends a GET for `path` to `client`'s API: any answer, an error status
    /// included, means it can be reached.
    ///
    /// - Parameters:
    ///   - client: The API's client.
    ///   - path: What to ask for; the API's root by default.
    ///   - clock: What it waits with.
    public convenience init(client: APIClient, path: String = "", clock: any SyncClock = .system) {
        self.init(clock: clock) { client.send(.get, path, body: nil, headers: [:]).asVoid() }
    }

    /// Whether a request has a chance to reach the API: unless a sync found it unreachable and
    /// no answer came since.
    public var isReachable: Bool { state.withLock { !$0.probing } }

    /// Starts reporting to `onChange`; nothing is reported until a sync fails to reach the API.
    ///
    /// - Parameter onChange: Called with each new state.
    public func start(_ onChange: @escaping @Sendable (Connectivity) -> Void) {
        state.withLock { $0.listener = onChange }
    }

    /// Stops reporting and asking.
    public func stop() {
        let wakeUp = state.withLock { state -> ScheduledWork? in
            state.listener = nil
            state.probing = false
            defer { state.wakeUp = nil }
            return state.wakeUp
        }
        wakeUp?.cancel()
    }

    /// Reports the API unreachable and starts asking, unless it already is.
    public func syncFoundUnreachable() {
        let told = state.withLock { state -> (@Sendable (Connectivity) -> Void)? in
            guard !state.probing, let listener = state.listener else { return nil }
            state.probing = true
            state.attempt = 0
            return listener
        }
        guard let told else { return }
        told(.unreachable)
        scheduleQuestion()
    }

    private func scheduleQuestion() {
        state.withLock { state in
            guard state.probing else { return }
            let delay = backoff.delay(beforeRetry: state.attempt)
            state.attempt += 1
            state.wakeUp = clock.schedule(after: delay) { [weak self] in self?.ask() }
        }
    }

    private func ask() {
        guard state.withLock({ $0.probing }) else { return }
        probe().whenSettled(on: .inline) { [weak self] result in
            guard let self else { return }
            if case .failure(let error) = result, FailureClass(error).kind == .offline {
                self.scheduleQuestion()
                return
            }
            let listener = self.state.withLock { state -> (@Sendable (Connectivity) -> Void)? in
                guard state.probing else { return nil }
                state.probing = false
                return state.listener
            }
            listener?(.reachable)
        }
    }
}
