import Foundation
import OfflineKit
import Promises
import Services

/// The line `demo sync` keeps up to date on standard error while files upload ("Uploading
/// receipt.pdf: 3.2 of 20.0 MB"), on a terminal only: piped output never carries it.
final class UploadProgress: Sendable {
    private let observation: ObservationHandle

    private init(_ observation: ObservationHandle) {
        self.observation = observation
    }

    /// Shows the progress of the files `attachments` has to upload; `nil` when standard error is
    /// not a terminal or no file waits.
    static func show(_ attachments: OfflineAttachments, _ terminal: Terminal) async -> UploadProgress? {
        guard terminal.errorIsTerminal,
            let files = try? await attachments.unfinishedUploads().value, !files.isEmpty
        else { return nil }
        let queue = DispatchQueue(label: "demo.upload-progress")
        return UploadProgress(
            attachments.observe(files.map(\.id), on: queue) { states in
                guard case .success(let states) = states, let line = line(files, states) else { return }
                FileHandle.standardError.write(Data("\r\(line)\u{1B}[K".utf8))
            })
    }

    /// Ends the observation and clears the line.
    func end() {
        observation.cancel()
        FileHandle.standardError.write(Data("\r\u{1B}[K".utf8))
    }

    /// The line for `files` at `states` (in the same order): the file under way, and all of them
    /// when there are several; `nil` once every one is uploaded.
    static func line(_ files: [OfflineAttachment], _ states: [OfflineAttachmentState]) -> String? {
        var sent: [Int64] = []
        var current: (file: OfflineAttachment, sent: Int64)?
        for (file, state) in zip(files, states) {
            switch state {
            case .uploaded, .unknown: sent.append(file.size)
            case .uploading(let bytes, _):
                sent.append(bytes)
                if current == nil { current = (file, bytes) }
            case .waiting, .held: sent.append(0)
            }
        }
        let total = files.reduce(Int64(0)) { $0 + $1.size }
        let all = sent.reduce(0, +)
        guard all < total || current != nil else { return nil }
        let each = files.count == 1 ? "" : "\(files.count) files: "
        guard let current else {
            return "Uploading \(each)\(AttachmentsScreen.bytes(all)) of \(AttachmentsScreen.bytes(total))"
        }
        let name = Terminal.escaped(current.file.name)
        let file =
            "\(name): \(AttachmentsScreen.bytes(current.sent)) of \(AttachmentsScreen.bytes(current.file.size))"
        return files.count == 1
            ? "Uploading \(file)"
            : "Uploading \(file) (\(each)\(AttachmentsScreen.bytes(all)) of \(AttachmentsScreen.bytes(total)))"
    }
}
