import Foundation

/// What a request carries: bytes in memory, or a file sent from disk as it goes, so that memory
/// does not grow with the file (an upload task from the file: URLSession reads it in pieces).
enum RequestBody: Sendable {
    /// Bytes in memory; JSON unless the request names another `Content-Type`.
    case data(Data)
    /// The file at `url`, of `size` bytes; `sent` hears how many bytes have gone so far.
    case file(URL, size: Int64, sent: @Sendable (Int64) -> Void)

    /// The least rate a file is given time for, in bytes a second, on top of the client's
    /// timeout: the client's own timer is for the whole request (URLSession's is for a pause), and
    /// a large file must not be cut for being large.
    static let slowestRate = 64 << 10

    /// How long a request with this body may take, given the client's `timeout`.
    func timeout(_ timeout: Double) -> Double {
        guard case .file(_, let size, _) = self else { return timeout }
        return timeout + Double(size) / Double(Self.slowestRate)
    }
}
