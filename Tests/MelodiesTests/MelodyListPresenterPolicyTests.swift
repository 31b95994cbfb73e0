import Foundation
import Melodies
import MelodiesTesting
import Testing

/// Counts handed over from any thread.
final class ShownCounts: @unchecked Sendable {
    // `@unchecked Sendable` is sound: `counts` is only touched while holding `lock`.
    private let lock = NSLock()
    private var counts: [Int] = []

    var all: [Int] { lock.withLock { counts } }

    func append(_ count: Int) {
        lock.withLock { counts.append(count) }
    }
}

/// Five minutes before the pinned formatter's now.
let fiveMinutesBeforeNow = Date(timeIntervalSince1970: 1_183_111_200 - 300)

/// A service that emulates each policy: it records the policy, shows a copy first when asked to,
/// and answers `final`.
final class PolicyMelodyServiceMock: MelodyService, @unchecked Sendable {
    // `@unchecked Sendable` is sound: `policies` is only touched while holding `lock`.
    private let lock = NSLock()
    private var policies: [CachePolicy] = []
    let copy: Fetched<[Melody]>
    let final: Promise<Fetched<[Melody]>>

    init(copy: Fetched<[Melody]>, final: Promise<Fetched<[Melody]>>) {
        self.copy = copy
        self.final = final
    }

    var askedPolicies: [CachePolicy] { lock.withLock { policies } }

    func getMelodies() -> Promise<[Melody]> {
        final.map(on: .inline) { $0.value }
    }

    func getMelodies(
        policy: CachePolicy, showingCopy: @escaping @Sendable (Fetched<[Melody]>) -> Void
    ) -> Promise<Fetched<[Melody]>> {
        lock.withLock { policies.append(policy) }
        if policy == .cacheThenNetwork { showingCopy(copy) }
        return final
    }
}

@Suite("Melody list screen: cache policies")
@MainActor
struct MelodyListPresenterPolicyTests {
    let view = RecordingMelodyListView()
    let copy = Fetched(value: Array(Melody.mocks().prefix(2)), source: .stored(savedAt: fiveMinutesBeforeNow))

    @Test(
        "each policy reaches the service, and what it answers is shown with its notice",
        arguments: [
            (CachePolicy.networkFirst, DataSource.network, nil),
            (
                .cacheFirst(maxAge: 600), .stored(savedAt: fiveMinutesBeforeNow),
                "Showing melodies saved 5 minutes ago."
            ),
            (.cacheOnly, .stored(savedAt: fiveMinutesBeforeNow), "Showing melodies saved 5 minutes ago."),
            (.networkOnly, .network, nil),
        ] as [(CachePolicy, DataSource, String?)])
    func onePass(policy: CachePolicy, source: DataSource, notice: String?) async {
        // Given
        let service = PolicyMelodyServiceMock(
            copy: copy, final: .value(Fetched(value: Melody.mocks(), source: source)))
        let presenter = MelodyListPresenterImp(
            melodyService: service, view: view, formatter: pinnedFormatter, cachePolicy: policy)

        // When
        let shown = await PromiseExpectations.value(of: presenter.fetchMelodies())

        // Then
        #expect(service.askedPolicies == [policy])
        #expect(shown == Melody.mocks())
        #expect(view.calls == ["loading true", "melodies", "rows", "notice", "loading false"])
        #expect(view.shownNotice == .some(notice))
    }

    @Test(
        "cache then network: the copy with a refreshing notice, then the fresh list; settles after the last")
    func twoPasses() async {
        // Given
        let (final, seal) = Promise<Fetched<[Melody]>>.pending()
        let service = PolicyMelodyServiceMock(copy: copy, final: final)
        let presenter = MelodyListPresenterImp(
            melodyService: service, view: view, formatter: pinnedFormatter, cachePolicy: .cacheThenNetwork)

        // When: the fresh list arrives after the copy
        let fetching = presenter.fetchMelodies()
        seal.fulfill(Fetched(value: Melody.mocks(), source: .network))
        let shown = await PromiseExpectations.value(of: fetching)

        // Then: the copy first, said to be refreshing, then the fresh list, all before the promise
        #expect(shown == Melody.mocks())
        #expect(view.shownRowCounts == [2, Melody.mocks().count])
        #expect(view.shownNotices == ["Showing melodies saved 5 minutes ago; refreshing…", nil])
        #expect(
            view.calls == [
                "loading true", "melodies", "rows", "notice", "melodies", "rows", "notice", "loading false",
            ])
    }

    @Test("fresh melodies that could not be saved say so")
    func notSavedNotice() async {
        // Given
        let service = PolicyMelodyServiceMock(
            copy: copy,
            final: .value(
                Fetched(
                    value: Melody.mocks(), source: .network,
                    cacheWriteError: .storageFailed(reason: "/data/app.sqlite: the database is locked"))))
        let presenter = MelodyListPresenterImp(melodyService: service, view: view, formatter: pinnedFormatter)

        // When
        _ = await PromiseExpectations.value(of: presenter.fetchMelodies())

        // Then
        #expect(
            view.shownNotice
                == .some(
                    "Fresh, but they could not be saved for offline use: /data/app.sqlite: the database is locked"
                ))
    }
}
