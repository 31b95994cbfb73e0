import Foundation
import Melodies
import MelodiesTesting
import Testing

/// A melody view that hands each list of rows it shows to a recorder.
@MainActor
final class WatchingMelodyView: MelodyListView {
    let rows = DeliveryRecorder<[MelodyRow]>()
    func showMelodies(melodies: [Melody]) {}
    func showLoadError(error: ServiceRequestError) {}
    func showLoading(_ isLoading: Bool) {}
    func showMelodyRows(_ rows: [MelodyRow]) { self.rows.record(rows) }
    func showSourceNotice(_ notice: String?) {}
    func showErrorMessage(_ message: String) {}
}

/// A watching melody list follows the list saved on the device.
@Suite("MelodyListPresenter: watching")
@MainActor
struct MelodyListWatchTests {
    let folder = TemporaryFolder("MelodyListWatchTests")

    @Test(
        "a list saved by another writer on the same file is shown as it is saved; an equal one is not shown again"
    )
    func followsTheSavedList() async throws {
        // Given: offline, with two melodies saved, and a watching screen
        let database = try Database(at: folder.file("melodies.sqlite"))
        let saved = Array(Melody.mocks().prefix(2))
        _ = await PromiseExpectations.value(of: MelodyCache(database: database).save(saved, at: Date()))
        let down = try ClosedPort()
        defer { withExtendedLifetime(down) {} }
        let api = APIClient(baseURL: down.baseURL)
        let view = WatchingMelodyView()
        let presenter = MelodyListPresenterImp(
            melodyService: LiveMelodyService(api: api, database: database), view: view)
        let (loaded, observation) = presenter.watchMelodies()
        _ = await PromiseExpectations.value(of: loaded)
        #expect(await view.rows.next()?.count == 2)

        // When: another connection saves the same list, then a longer one
        let other = MelodyCache(database: try Database(at: folder.file("melodies.sqlite")))
        _ = await PromiseExpectations.value(of: other.save(saved, at: Date(timeIntervalSince1970: 0)))
        _ = await PromiseExpectations.value(of: other.save(Melody.mocks(), at: Date()))

        // Then: the longer one is the next shown
        #expect(await view.rows.next()?.count == Melody.mocks().count)
        #expect(observation != nil)
        observation?.cancel()
    }
}
