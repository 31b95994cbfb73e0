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
public final class APIProbe: ConnectivityMonitor, @unchecked Sendable {
    // `@unchecked Sendable` is sound: the mutable state (`listener`, `probing`, `attempt`,
    // `wakeUp`) is only read or written while holding `lock`; callbacks run outside it.
    private let lock = NSLock()
    private let probe: @Sendable () -> Promise<Void>
    private let clock: any SyncClock
    private let backoff: RetryPolicy
    private var listener: (@Sendable (Connectivity) -> Void)?
    private var probing = false
    private var attempt = 0
    private var wakeUp: ScheduledWork?

    /// Makes a probe that asks with `probe`.
    ///
    /// - Parameters:
    ///   - clock: What it waits with.
    ///   - backoff: The waits between two questions; ``SyncScheduler/standardBackoff`` by default.
    ///   - probe: Asks the API; fulfilled or rejected with anything but an "offline" failure
    ///     (``FailureClass/Kind/offline``) means it answered.
    public init(
        clock: any SyncClock = .system, backoff: RetryPolicy = SyncScheduler.standardBackoff,
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
    public var isReachable: Bool { lock.withLock { !probing } }

    /// Starts reporting to `onChange`; nothing is reported until a sync fails to reach the API.
    ///
    /// - Parameter onChange: Called with each new state.
    public func start(_ onChange: @escaping @Sendable (Connectivity) -> Void) {
        lock.withLock { listener = onChange }
    }

    /// Stops reporting and asking.
    public func stop() {
        let wakeUp = lock.withLock { () -> ScheduledWork? in
            listener = nil
            probing = false
            defer { self.wakeUp = nil }
            return self.wakeUp
        }
        wakeUp?.cancel()
    }

    /// Reports the API unreachable and starts asking, unless it already is.
    public func syncFoundUnreachable() {
        let told = lock.withLock { () -> (@Sendable (Connectivity) -> Void)? in
            guard !probing, let listener else { return nil }
            probing = true
            attempt = 0
            return listener
        }
        guard let told else { return }
        told(.unreachable)
        scheduleQuestion()
    }

    private func scheduleQuestion() {
        lock.withLock {
            guard probing else { return }
            let delay = backoff.delay(beforeRetry: attempt)
            attempt += 1
            wakeUp = clock.schedule(after: delay) { [weak self] in self?.ask() }
        }
    }

    private func ask() {
        guard lock.withLock({ probing }) else { return }
        probe().whenSettled(on: .inline) { [weak self] result in
            guard let self else { return }
            if case .failure(let error) = result, FailureClass(error).kind == .offline {
                self.scheduleQuestion()
                return
            }
            let listener = self.lock.withLock { () -> (@Sendable (Connectivity) -> Void)? in
                guard self.probing else { return nil }
                self.probing = false
                return self.listener
            }
            listener?(.reachable)
        }
    }
}
