public import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A folder of requests handed to a transfer service that may send them after the app has exited
/// (a background `URLSession`, or on Linux `demo transfers run`), and of the answers it got.
///
/// Each request has a name (a UUID) and up to three files: `NAME.body` (what is uploaded; empty
/// for none), then `NAME.request` (a ``SpooledRequest``), then, once the service is done with it,
/// `NAME.answer` (a ``SpooledAnswer``). Each is written whole beside its name and renamed into
/// place, so a reader, in any process, sees a request or an answer whole or not at all; the body is
/// written before the request that names it, so a request never names a missing body.
///
/// The folder is its owner's only: a request made for a signed-in user carries its token.
///
/// ```swift
/// let spool = TransferSpool(folder: container.appendingPathComponent("Transfers"))
/// ```
public struct TransferSpool: Sendable, Equatable {
    /// The folder, made (owner-only) at the first request written.
    public let folder: URL

    /// Where a request stands.
    public enum State: Sendable, Equatable {
        /// Written, and not answered yet.
        case waiting
        /// Answered: the service is done with it.
        case answered(SpooledAnswer)
        /// Not in the spool: never written whole, or removed.
        case missing
    }

    /// The spool at `folder`.
    ///
    /// - Parameter folder: Where requests and answers are kept; in an app's container (the group
    ///   container when its extensions hand requests off too).
    public init(folder: URL) {
        self.folder = folder
    }

    /// Writes a request and its body under a new name.
    ///
    /// - Parameters:
    ///   - request: The request.
    ///   - body: What it uploads; `nil` for nothing.
    ///   - name: Its name; a new UUID by default.
    /// - Returns: The name.
    /// - Throws: `POSIXError` or a Foundation error when the folder or a file cannot be written
    ///   (nothing is left of the request then).
    @discardableResult
    public func write(_ request: SpooledRequest, body: Data?, name: String = UUID().uuidString.lowercased())
        throws -> String
    {
        try makeFolder()
        do {
            try FileReplacement.replace(url(name, "body"), with: body ?? Data())
            try FileReplacement.replace(url(name, "request"), with: try JSONEncoder().encode(request))
        } catch {
            remove(name)
            throw error
        }
        return name
    }

    /// Records what the service got for request `name`: from then on it is answered.
    ///
    /// - Parameters:
    ///   - answer: The answer, or the failure.
    ///   - name: The request's name.
    /// - Throws: `POSIXError` or an `EncodingError` when it cannot be written (the request then
    ///   still waits).
    public func record(_ answer: SpooledAnswer, for name: String) throws {
        try FileReplacement.replace(url(name, "answer"), with: try JSONEncoder().encode(answer))
    }

    /// Where request `name` stands. An answer that cannot be read (a damaged file) counts as
    /// missing, so that its sender takes the request back rather than wait for it forever.
    ///
    /// - Parameter name: The request's name.
    /// - Returns: Waiting, answered or missing.
    public func state(of name: String) -> State {
        guard Self.isName(name) else { return .missing }
        if let data = FileManager.default.contents(atPath: url(name, "answer").path) {
            guard let answer = try? JSONDecoder().decode(SpooledAnswer.self, from: data) else {
                return .missing
            }
            return .answered(answer)
        }
        return isWhole(name) ? .waiting : .missing
    }

    /// Whether request `name` and its body are both in the spool: a request without its body (the
    /// body's file removed) is missing, never sent (an upload from a missing file may never end).
    private func isWhole(_ name: String) -> Bool {
        FileManager.default.fileExists(atPath: url(name, "request").path)
            && FileManager.default.fileExists(atPath: url(name, "body").path)
    }

    /// The request `name` and the file its body is in, or `nil` when it is not in the spool whole.
    ///
    /// - Parameter name: The request's name.
    /// - Returns: The request and its body's file.
    public func request(_ name: String) -> (request: SpooledRequest, body: URL)? {
        guard Self.isName(name), let data = FileManager.default.contents(atPath: url(name, "request").path),
            let request = try? JSONDecoder().decode(SpooledRequest.self, from: data), isWhole(name)
        else { return nil }
        return (request, url(name, "body"))
    }

    /// The names of the requests written whole (with their bodies) and not answered, oldest first.
    ///
    /// - Returns: The names.
    public func waiting() -> [String] {
        let names = names(withExtension: "request")
        let answered = Set(self.names(withExtension: "answer").map(\.name))
        return names.filter { !answered.contains($0.name) && isWhole($0.name) }.sorted { $0.date < $1.date }
            .map(\.name)
    }

    /// Every request's name, answered or not.
    ///
    /// - Returns: The names, in no order.
    public func all() -> Set<String> {
        Set(names(withExtension: "request").map(\.name) + names(withExtension: "answer").map(\.name))
    }

    /// Removes request `name`, its body and its answer; what is not there is skipped.
    ///
    /// - Parameter name: The request's name.
    public func remove(_ name: String) {
        guard Self.isName(name) else { return }
        // The answer first, the request last: a reader never sees a request waiting that was answered.
        for suffix in ["answer", "body", "request"] { _ = unlink(url(name, suffix).path) }
    }

    /// The file of `name` with `suffix`.
    func url(_ name: String, _ suffix: String) -> URL {
        folder.appendingPathComponent("\(name).\(suffix)")
    }

    /// Whether `name` is one this spool makes: letters, digits and `-`, so no name reaches out of
    /// the folder.
    static func isName(_ name: String) -> Bool {
        !name.isEmpty && name.utf8.count <= 64
            && name.utf8.allSatisfy { byte in
                (0x30...0x39).contains(byte) || (0x41...0x5a).contains(byte) || (0x61...0x7a).contains(byte)
                    || byte == 0x2d
            }
    }

    /// The names with a file ending in `.suffix`, and when that file was written.
    private func names(withExtension suffix: String) -> [(name: String, date: Date)] {
        let files =
            (try? FileManager.default.contentsOfDirectory(
                at: folder, includingPropertiesForKeys: [.contentModificationDateKey])) ?? []
        return files.compactMap { file in
            guard file.pathExtension == suffix else { return nil }
            let name = file.deletingPathExtension().lastPathComponent
            guard Self.isName(name) else { return nil }
            let date = (try? file.resourceValues(forKeys: [.contentModificationDateKey]))?
                .contentModificationDate
            return (name, date ?? .distantPast)
        }
    }

    /// Makes the folder, owner-only, when it is missing.
    private func makeFolder() throws {
        try FileManager.default.createDirectory(
            at: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
    }
}
