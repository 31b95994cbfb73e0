import Foundation
import OfflineKit
import PromiseMVPTesting
import Promises
import Services
import Testing

/// `StorageBudget.including(_:)`: kept files counted and let go of, read longest ago first, never
/// one whose upload is not complete; a file let go of is downloaded again when read.
@Suite("Storage budget: files")
struct StorageBudgetFilesTests {
    typealias Attachments = OfflineAttachmentsTests
    let base = OfflineAttachmentsTests()

    /// The files of `device`'s folder by digest, with their modification dates set to `dates`.
    func dated(_ device: Attachments.Device, _ dates: [String: TimeInterval]) throws {
        for (sha256, seconds) in dates {
            try FileManager.default.setAttributes(
                [.modificationDate: Date(timeIntervalSince1970: seconds)],
                ofItemAtPath: device.files.files.folder.appendingPathComponent(sha256).path)
        }
    }

    @Test(
        "uploaded files go, read longest ago first; a file not uploaded stays; one gone is downloaded again")
    func filesLetGo() async throws {
        // Given: two photos uploaded, the one kept first read since, and a third not uploaded
        let api = try Attachments.API()
        let device = try Attachments.Device(base.databaseFile, api)
        let old = try await base.inspectionWithPhoto(device, photo: try base.photo("old.jpg", bytes: 4_000))
        let read = try await base.inspectionWithPhoto(device, photo: try base.photo("read.jpg", bytes: 5_000))
        _ = await PromiseExpectations.value(of: device.files.sync())
        try dated(device, [old.sha256: 2_000, read.sha256: 1_000])  // read was kept first
        _ = await PromiseExpectations.value(of: device.files.file(for: read))
        let waiting = try #require(
            await PromiseExpectations.value(
                of: device.files.attach(
                    fileAt: try base.photo("new.jpg", bytes: 6_000), contentType: "image/jpeg")))
        let database = try Database(at: base.databaseFile)
        let usage = try #require(
            await PromiseExpectations.value(
                of: StorageBudget(database: database, bytes: 0).including(device.files.files).usage()))
        let records = usage.bytes - usage.fileBytes  // the inspections made here: kept
        let budget = StorageBudget(database: database, bytes: records + 11_000).including(device.files.files)
        let before = try #require(
            await PromiseExpectations.value(of: device.files.diagnostics()).flatMap(\.files))

        // When: a pass under room for two files, then one under none
        let first = try #require(await PromiseExpectations.value(of: budget.enforce()))
        let kept = [old, read, waiting].map { device.files.keptFile(of: $0) != nil }
        let second = try #require(
            await PromiseExpectations.value(
                of: StorageBudget(database: database, bytes: 0).including(device.files.files).enforce()))
        let after = try #require(
            await PromiseExpectations.value(of: device.files.diagnostics()).flatMap(\.files))
        let again = await PromiseExpectations.value(of: device.files.file(for: old))

        // Then: the file read longest ago went first; the one not uploaded stayed, over the budget
        #expect(before.count == 3 && before.bytes == 15_000 && before.waitingBytes == 6_000)
        #expect(first.evicted == 1 && first.fileBytes == 11_000 && first.isWithinBudget)
        #expect(kept == [false, true, true])
        #expect(usage.fileBytes == 15_000 && records > 0 && usage.keptBytes == records + 6_000)
        #expect(second.evicted == 1 && second.fileBytes == 6_000 && second.keptBytes == records + 6_000)
        #expect(second.overBudget != nil)
        #expect(after.count == 1 && after.bytes == 6_000 && after.waitingBytes == 6_000)
        #expect(
            try again.map { try Data(contentsOf: $0) }
                == Data(contentsOf: base.photo("old.jpg", bytes: 4_000)))
    }

    @Test("enforcing weighs the files: over the budget by an uploaded file, a pass lets it go")
    func enforcingCountsFiles() async throws {
        // Given: a photo uploaded, its record kept here, and a budget of the record alone
        let api = try Attachments.API()
        let device = try Attachments.Device(base.databaseFile, api)
        _ = try await base.inspectionWithPhoto(device, photo: try base.photo("roof.jpg", bytes: 8_000))
        _ = await PromiseExpectations.value(of: device.files.sync())
        let database = try Database(at: base.databaseFile)
        let usage = try #require(
            await PromiseExpectations.value(
                of: StorageBudget(database: database, bytes: 0).including(device.files.files).usage()))
        let budget = StorageBudget(database: database, bytes: usage.bytes - usage.fileBytes)
            .including(device.files.files)

        // When: kept from now on
        let reports = DeliveryRecorder<StorageUsage>()
        let enforcing = budget.enforcing { if case .success(let usage) = $0 { reports.record(usage) } }
        defer { enforcing.cancel() }
        let first = await reports.next()

        // Then: the file went at once, and the copy fits
        #expect(usage.fileBytes == 8_000)
        #expect(first.map { $0.evicted == 1 && $0.fileBytes == 0 && $0.isWithinBudget } == true)
    }

    @Test("enforcing weighs a file downloaded again: over the budget by it, the file read longest ago goes")
    func enforcingCountsDownloads() async throws {
        // Given: two photos uploaded, the first let go of by a pass, and a budget kept from then on
        // with room for one of them
        let api = try Attachments.API()
        let device = try Attachments.Device(base.databaseFile, api)
        let first = try await base.inspectionWithPhoto(
            device, photo: try base.photo("first.jpg", bytes: 4_000))
        let second = try await base.inspectionWithPhoto(
            device, photo: try base.photo("second.jpg", bytes: 5_000))
        _ = await PromiseExpectations.value(of: device.files.sync())
        try dated(device, [first.sha256: 1_000, second.sha256: 2_000])
        let usage = try #require(
            await PromiseExpectations.value(
                of: StorageBudget(database: device.database, bytes: 0).including(device.files.files).usage()))
        let budget = StorageBudget(database: device.database, bytes: usage.bytes - 4_000)
            .including(device.files.files)
        let pass = try #require(await PromiseExpectations.value(of: budget.enforce()))
        let reports = DeliveryRecorder<StorageUsage>()
        let enforcing = budget.enforcing { if case .success(let usage) = $0 { reports.record(usage) } }
        defer { enforcing.cancel() }

        // When: the first photo is read again, and downloaded
        let again = await PromiseExpectations.value(of: device.files.file(for: first))
        let after = await reports.next()

        // Then: a pass weighed it at once and let go of the photo read longest ago
        #expect(usage.fileBytes == 9_000)
        #expect(pass.evicted == 1 && pass.fileBytes == 5_000 && pass.isWithinBudget)
        #expect(again.map { FileManager.default.fileExists(atPath: $0.path) } == true)
        #expect(after.map { $0.evicted == 1 && $0.fileBytes == 4_000 && $0.isWithinBudget } == true)
        #expect(device.files.keptFile(of: first) != nil && device.files.keptFile(of: second) == nil)
    }
}
