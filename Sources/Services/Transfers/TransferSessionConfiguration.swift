import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The platform seam of ``BackgroundTransfers``: the session its requests go on.
enum TransferSessionConfiguration {
    /// The configuration of the session named `identifier`.
    ///
    /// - Apple platforms: a background session. The system's transfer daemon sends its tasks, goes
    ///   on after the app is suspended or has exited, and relaunches the app in the background with
    ///   the session's events (`application(_:handleEventsForBackgroundURLSession:completionHandler:)`).
    ///   Not discretionary: a change the user made goes as soon as the network allows.
    /// - Linux: no such daemon. A plain session in the process that runs the spool, which stands in
    ///   for it (`demo transfers run`); its tasks end with that process, and the requests it did not
    ///   finish wait in the spool for the next run.
    static func make(identifier: String) -> URLSessionConfiguration {
        #if canImport(FoundationNetworking)
            let configuration = URLSessionConfiguration.default
        #else
            let configuration = URLSessionConfiguration.background(withIdentifier: identifier)
            configuration.isDiscretionary = false
            if #available(macOS 11, *) { configuration.sessionSendsLaunchEvents = true }
        #endif
        // The answer is the API's, not a cached one, and nothing is kept of it but the spool's file.
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        configuration.urlCache = nil
        return configuration
    }
}
