public import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A port on 127.0.0.1 that refuses every connection for as long as this value lives: the address
/// of an API that is down.
///
/// The port is bound to a socket that never listens, so the system refuses each connection to it
/// (as it does where nothing is bound) and gives the port to no one else meanwhile: a server
/// another test starts on "any free port" cannot take it and answer where this test expects a
/// refused connection. Keep the value for as long as anything may connect to ``baseURL``.
///
/// ```swift
/// let down = try ClosedPort()
/// let api = APIClient(baseURL: down.baseURL)  // every request: ServiceRequestError.noNetwork
/// ```
public final class ClosedPort: Sendable {
    /// The port, refused while this value lives.
    public let port: UInt16
    private let socket: Int32

    /// The base URL to give an `APIClient` whose API is down.
    public var baseURL: URL { TestHTTPServer.loopbackURL(port: port) }

    /// Holds any free port, refusing connections to it.
    ///
    /// - Throws: `POSIXError` when no socket can be opened on 127.0.0.1.
    public convenience init() throws {
        try self.init(port: 0)
    }

    /// Holds `port` (any free one for 0), refusing connections to it: what a stopped
    /// ``TestHTTPServer`` keeps until it starts again.
    init(port: UInt16) throws {
        (socket, self.port) = try TestHTTPServer.openSocket(port: port, listening: false)
    }

    deinit {
        _ = close(socket)
    }
}
