import Benchmark
import Foundation
import OfflineKit
import PromiseMVPTestServer
import Promises
import Services

/// Files uploaded over a phone's round trip (#82): the loopback tus API holds every answer 50 ms
/// (±10%), and `OfflineAttachments.sync()` sends 100 files of 1 MB (each a creation and a piece,
/// several in flight), beside one file of 100 MB (a creation and 25 pieces of 4 MiB, one after
/// the other).
func uploadBenchmarks() {
    let configuration = Benchmark.Configuration(
        metrics: [.wallClock], timeUnits: .milliseconds, warmupIterations: 0, maxDuration: .seconds(60),
        maxIterations: 3)
    for (shape, files, size) in [
        ("one file of 100 MB", 1, 100_000_000), ("100 files of 1 MB", 100, 1_000_000),
    ] {
        Benchmark("20 uploads at 50 ms a round trip / \(shape)", configuration: configuration) { benchmark in
            let device = try await UploadDevice(files: files, size: size)
            defer { device.server.stop() }
            benchmark.startMeasurement()
            let report = try await device.attachments.sync().value
            benchmark.stopMeasurement()
            precondition(report.sent.count == files && report.waiting == 0)
            precondition(device.uploads.uploads.allSatisfy { $0.sha256 != nil })
        }
    }
}

/// `files` files of `size` bytes attached in a database of their own, and a tus API that counts
/// and hashes what it receives (it keeps no bytes), holding every answer 50 ms.
private struct UploadDevice {
    let uploads = TestUploadAPI(keepsBytes: false)
    let server: TestHTTPServer
    let attachments: OfflineAttachments

    init(files: Int, size: Int) async throws {
        let folder = temporaryFolder()
        server = try TestHTTPServer(keepsConnectionsOpen: true, responder: uploads.responder)
        server.latency = TestHTTPServer.Latency(roundTrip: 0.05, jitter: 0.005)
        let database = try Database(at: folder.appendingPathComponent("uploads.sqlite"))
        attachments = OfflineAttachments(
            database: database, client: APIClient(baseURL: server.baseURL, timeout: 60, retry: .never))
        let file = folder.appendingPathComponent("file.bin")
        var generator = SystemRandomNumberGenerator()
        try Data((0..<size).map { _ in UInt8.random(in: 0...255, using: &generator) }).write(to: file)
        for index in 0..<files {
            _ = try await attachments.attach(
                fileAt: file, name: "file \(index).bin", contentType: "application/octet-stream"
            ).value
        }
    }
}
