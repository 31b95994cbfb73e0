public import Foundation
public import Promises
public import Services

/// Other devices' changes as they happen: an `EventStream` whose events name the collections
/// that changed (`{"orders": "rev-9"}`: the keys, whatever the values say), each refreshed then
/// through its own change feed, never from the event. The push is a poke, never the data: an
/// event lost costs nothing but time, as the next refresh brings what it announced.
///
/// - **Coalesced**: for each collection at most one refresh runs and one waits, whatever the
///   number of events, and two begin at least ``spacing`` apart: a burst of a thousand events in
///   ten seconds costs 18 refreshes at most.
/// - **Caught up**: each time the stream comes back after being down, every collection is
///   refreshed once (what was announced meanwhile may have been missed).
/// - **The safety net**: polling goes on, rarely while the stream is live
///   (``SyncScheduler/refresh(every:pushedBy:_:)``).
/// - **Silent pushes**: ``refresh(forRemoteNotification:)`` refreshes what a remote notification's
///   payload names, and says whether it brought anything, for the system's completion handler.
public final class LiveRefresh: Sendable {
    /// A collection kept current: its name in the events, and how it is refreshed.
    public struct Target: Sendable {
        /// The collection's name, as the API's events and notifications name it.
        public let name: String
        /// Brings its changes into the copy.
        public let refresh: @Sendable () -> Promise<OfflineRefresh>

        /// A target named `name`, refreshed by `refresh`.
        ///
        /// - Parameters:
        ///   - name: The collection's name in the events.
        ///   - refresh: Brings its changes down.
        public init(name: String, refresh: @escaping @Sendable () -> Promise<OfflineRefresh>) {
            (self.name, self.refresh) = (name, refresh)
        }

        /// `collection`, named as it is on the API (``OfflineCollection/collection``), refreshed
        /// after its changes are sent (joining a sync under way, whatever its outcome): a refresh
        /// never runs beside a sync of its own collection, where it could bring a resource this
        /// device is creating before the create's answer is recorded.
        ///
        /// - Parameter collection: The collection.
        /// - Returns: The target.
        public static func collection<Resource>(_ collection: OfflineCollection<Resource>) -> Target {
            Target(name: collection.collection) {
                collection.sync().asVoid().recover(on: .inline, policy: .allErrors) { _ in }
                    .then(on: .inline) { collection.refresh() }
            }
        }
    }

    /// What a silent push brought, as the system's completion handler is told.
    public enum FetchResult: Sendable, Equatable {
        /// A collection it named changed.
        case newData
        /// Nothing changed, or it named nothing this app keeps.
        case noData
        /// A refresh failed.
        case failed
    }

    /// The stream the events come from.
    public let stream: EventStream
    /// How long polling waits between two refreshes while the stream is live, in seconds.
    public let safetyNet: TimeInterval
    /// The least time between the starts of two refreshes of one collection, in seconds.
    public let spacing: TimeInterval
    let clock: any SyncClock
    private let targets: [String: Target]
    private let state = Locked(State())

    private struct State {
        /// By collection: a refresh running, and whether another waits behind it.
        var running: [String: Bool] = [:]
        /// Told in the order they came.
        var watchers: [Int: @Sendable (Bool) -> Void] = [:]
        var nextWatcher = 0
        var live = false
        /// The stream was live once already: the next time it is, it comes back.
        var wasLive = false
        /// Refreshes started by events or by the stream's return: what a test and a benchmark count.
        var refreshes = 0
        /// When each collection's last refresh began.
        var lastStarted: [String: Date] = [:]
    }

    /// Keeps `targets` current from `stream`'s events once ``start(lastEventID:)`` is called.
    ///
    /// - Parameters:
    ///   - stream: The API's event stream.
    ///   - targets: The collections, by the names the events give them.
    ///   - safetyNet: Seconds between two polls while the stream is live; 15 minutes by default.
    ///   - spacing: The least time between the starts of two refreshes of one collection, in
    ///     seconds; 0.6 by default (a burst of ten seconds costs 18 refreshes at most).
    ///   - clock: What times the spacing; the system's by default.
    public init(
        stream: EventStream, targets: [Target], safetyNet: TimeInterval = 900, spacing: TimeInterval = 0.6,
        clock: any SyncClock = .system
    ) {
        self.stream = stream
        self.targets = Dictionary(targets.map { ($0.name, $0) }) { first, _ in first }
        (self.safetyNet, self.spacing, self.clock) = (safetyNet, spacing, clock)
    }

    /// Opens the stream; each event refreshes the collections it names.
    ///
    /// - Parameter lastEventID: Where an earlier run of the app left off, if it kept it.
    public func start(lastEventID: String = "") {
        stream.start(
            lastEventID: lastEventID, { [weak self] event in self?.received(event) },
            state: { [weak self] state in self?.streamIs(state) })
    }

    /// Closes the stream; refreshes under way finish.
    public func stop() {
        stream.stop()
    }

    /// Whether the stream is live now: polling may then wait ``safetyNet``.
    public var isLive: Bool { state.withLock { $0.live } }

    /// How many refreshes events and the stream's returns have started.
    public var refreshesStarted: Int { state.withLock { $0.refreshes } }

    /// Calls `onChange` with whether the stream is live, each time that changes, until the handle
    /// is released or cancelled; watchers are told in the order they began watching.
    ///
    /// - Parameter onChange: Gets `true` when the stream is live, `false` when it is down.
    /// - Returns: The observation.
    public func observeLive(_ onChange: @escaping @Sendable (Bool) -> Void) -> ObservationHandle {
        let id = state.withLock { state -> Int in
            state.nextWatcher += 1
            state.watchers[state.nextWatcher] = onChange
            return state.nextWatcher
        }
        return ObservationHandle { [weak self] in self?.state.withLock { $0.watchers[id] = nil } }
    }

    /// Refreshes what a silent push's payload names: the keys of its `changes` object
    /// (`{"aps": {"content-available": 1}, "changes": {"orders": "rev-9"}}`), and says what that
    /// brought, for `application(_:didReceiveRemoteNotification:fetchCompletionHandler:)`.
    /// APNs delivers such pushes at low priority (5), a few an hour at most, and not always: they
    /// hurry a refresh, they never replace one.
    ///
    /// - Parameter payload: The notification's `userInfo`.
    /// - Returns: A guarantee of what the refreshes brought.
    public func refresh(forRemoteNotification payload: [AnyHashable: Any]) -> Guarantee<FetchResult> {
        let names = (payload["changes"] as? [String: Any]).map { Array($0.keys) } ?? []
        let refreshes = names.compactMap { targets[$0] }.map { $0.refresh() }
        // None named: `when` of none is at once, and no data.
        return when(resolved: refreshes).map(on: .inline) { results in
            var result = FetchResult.noData
            for outcome in results {
                switch outcome {
                case .failure: return .failed
                case .success(.unchanged), .success(.applied(changes: 0, deletions: 0)): break
                case .success: result = .newData
                }
            }
            return result
        }
    }

    /// An event: the collections it names, each refreshed (coalesced).
    func received(_ event: ServerSentEvent) {
        for name in Self.collections(in: event.data) where targets[name] != nil {
            poke(name)
        }
    }

    /// The names an event's data gives: the keys of a JSON object, or the strings of an array.
    static func collections(in data: String) -> [String] {
        guard let json = try? JSONSerialization.jsonObject(with: Data(data.utf8)) else { return [] }
        if let object = json as? [String: Any] { return Array(object.keys).sorted() }
        return (json as? [Any])?.compactMap { $0 as? String } ?? []
    }

    /// The stream's state: watchers told when it goes live or down; back after being down,
    /// every collection is refreshed once.
    private func streamIs(_ streamState: EventStream.State) {
        let live = streamState == .live
        let (watchers, cameBack) = state.withLock { state -> ([@Sendable (Bool) -> Void], Bool) in
            guard state.live != live else { return ([], false) }
            state.live = live
            let cameBack = live && state.wasLive
            if live { state.wasLive = true }
            return (state.watchers.sorted { $0.key < $1.key }.map(\.value), cameBack)
        }
        for watcher in watchers { watcher(live) }
        if cameBack { targets.keys.sorted().forEach(poke) }
    }

    /// Refreshes `name` now, or once more after the refresh running, however many times asked;
    /// never sooner than ``spacing`` after the one before began.
    private func poke(_ name: String) {
        let start = state.withLock { state -> Bool in
            switch state.running[name] {
            case nil:
                state.running[name] = false
                return true
            case false?:
                state.running[name] = true
                return false
            case true?:
                return false
            }
        }
        if start { run(name) }
    }

    /// Starts `name`'s refresh, at once or when ``spacing`` since the last one began has passed;
    /// when it ends, starts the one that waited, if any.
    private func run(_ name: String) {
        guard let target = targets[name] else { return }
        let now = clock.now
        let wait = state.withLock { state -> TimeInterval in
            let wait = state.lastStarted[name].map { spacing - now.timeIntervalSince($0) } ?? 0
            guard wait <= 0 else { return wait }
            state.lastStarted[name] = now
            state.refreshes += 1
            return 0
        }
        guard wait <= 0 else {
            _ = clock.schedule(after: wait) { [weak self] in self?.run(name) }
            return
        }
        target.refresh().whenSettled(on: .inline) { [weak self] _ in
            guard let self else { return }
            let again = self.state.withLock { state -> Bool in
                guard state.running[name] == true else {
                    state.running[name] = nil
                    return false
                }
                state.running[name] = false
                return true
            }
            if again { self.run(name) }
        }
    }
}
