import Foundation
import Melodies
import OfflineKit
import Orders
import Promises
import Services

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// `orders watch` and `melodies watch`: the list, shown again at each change saved on this device
/// (by this demo, its sync, or another demo on the same file), until Ctrl-C or the end of the
/// input. Orders are sent by a `SyncScheduler` meanwhile, with an `APIProbe` telling when the
/// API is back. Other devices' changes come pushed where the shop streams them (`LiveRefresh`
/// over its `GET /events`: each event refreshes what it names), and are asked for every
/// `--refresh` seconds while the stream is down (a conditional GET: nothing is written when
/// nothing changed), every 15 minutes while it is live.
@MainActor
enum WatchScreen {
    /// How many of the newest orders `orders watch` shows: a screenful and more.
    static let watchedOrders = 100

    static func orders(_ app: App, _ arguments: Arguments, _ terminal: Terminal) async -> Int32 {
        let view = TerminalOrdersView(terminal: terminal, api: arguments.api)
        view.watching = true
        view.watchedAtMost = watchedOrders
        view.sample = await Seeding.ordersAreSample(app.database)
        let presenter = ListOrdersPresenter(
            worker: app.worker, output: view, formatter: app.formatter, cachePolicy: arguments.cachePolicy)
        view.listPresenter = presenter
        let scheduler =
            arguments.offline ? nil : app.orders.makeSyncScheduler(connectivity: APIProbe(client: app.api))
        // Other devices' changes come down by themselves: pushed by the shop's event stream where
        // it has one, and the list refreshed every --refresh seconds while the stream is down
        // (every 15 minutes while it is live).
        let live = scheduler.map { _ in
            LiveRefresh(stream: EventStream(client: app.api), targets: app.orders.liveTargets)
        }
        let refreshing = scheduler.map { scheduler in
            live.map { scheduler.refresh(every: arguments.refresh, pushedBy: $0) { app.orders.refresh() } }
                ?? scheduler.refresh(every: arguments.refresh) { app.orders.refresh() }
        }
        let polled = "Changes made elsewhere: asked for every \(Self.seconds(arguments.refresh))."
        if live != nil { view.showChangesLine(polled) }
        let liveLine = live?.observeLive { isLive in
            Task { @MainActor in view.showChangesLine(isLive ? Self.liveLine : polled) }
        }
        scheduler?.start()
        live?.start()
        // The first load's failure (signed out, say) is shown by the view; nothing else handles it.
        // The newest orders only: a copy of any size costs the watch one page a change.
        let (loaded, observation) = presenter.watchOrders(first: watchedOrders)
        loaded.catch(on: .inline) { _ in }
        await untilEnded()
        observation?.cancel()
        live?.stop()
        liveLine?.cancel()
        refreshing?.cancel()
        if let scheduler { await scheduler.stop().value }
        return 0
    }

    /// The watch's line while the shop pushes its changes.
    static let liveLine = "Live: changes made elsewhere show as they happen."

    /// `seconds` as the watch's line says them: "30 s", "1.5 s".
    static func seconds(_ seconds: TimeInterval) -> String {
        seconds == seconds.rounded() ? "\(Int(seconds)) s" : "\(seconds) s"
    }

    static func melodies(_ service: LiveMelodyService, _ arguments: Arguments, _ terminal: Terminal) async
        -> Int32
    {
        let view = TerminalMelodyListView(terminal: terminal, api: arguments.api)
        view.watching = true
        let presenter = MelodyListPresenterImp(
            melodyService: service, view: view, cachePolicy: arguments.cachePolicy)
        view.presenter = presenter
        let (loaded, observation) = presenter.watchMelodies()
        loaded.catch(on: .inline) { _ in }
        await untilEnded()
        observation?.cancel()
        return 0
    }

    /// Returns at Ctrl-C (SIGINT) or when standard input ends, whichever comes first.
    private static func untilEnded() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let ended = Ended(continuation)
            signal(SIGINT, SIG_IGN)
            let interrupt = DispatchSource.makeSignalSource(signal: SIGINT, queue: .main)
            interrupt.setEventHandler { ended.end() }
            interrupt.resume()
            ended.keep(interrupt)
            // Standard input is read on a thread of its own until it ends; what is typed is ignored.
            Thread.detachNewThread {
                var buffer = [UInt8](repeating: 0, count: 256)
                while read(STDIN_FILENO, &buffer, buffer.count) > 0 {}
                ended.end()
            }
        }
    }
}

/// Resumes the watch once, whichever way it ends.
private final class Ended: @unchecked Sendable {
    // `@unchecked Sendable` is sound: `continuation` and `source` are only read or written while
    // holding `lock`.
    private let lock = Locked()
    private var continuation: CheckedContinuation<Void, Never>?
    private var source: (any DispatchSourceSignal)?

    init(_ continuation: CheckedContinuation<Void, Never>) {
        self.continuation = continuation
    }

    func keep(_ source: any DispatchSourceSignal) {
        lock.withLock { self.source = source }
    }

    func end() {
        let (continuation, source) = lock.withLock {
            defer {
                self.continuation = nil
                self.source = nil
            }
            return (self.continuation, self.source)
        }
        source?.cancel()
        continuation?.resume()
    }
}
