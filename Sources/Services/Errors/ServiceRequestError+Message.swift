extension ServiceRequestError {
    /// One sentence to show the user: what happened and what they can do.
    public var userMessage: String {
        switch self {
        case .unknownError:
            "Something went wrong. Please try again."
        case .noNetwork:
            "You are offline. Check your connection and try again."
        case .noData:
            "Nothing to show yet: connect to the network once to load it."
        case .httpStatus(401):
            "Sign in to continue. Nothing you changed on this device is lost: it waits for the sign-in."
        case .httpStatus(403):
            "You are not allowed to see or change this."
        case .httpStatus where FailureClass(self).isGone:
            "This could not be found on the server."
        case .httpStatus where FailureClass(self).isConflict:
            "Someone changed this meanwhile; nothing was overwritten. Look at it again."
        case .httpStatus(let status) where FailureClass(self).kind == .serverTrouble:
            "The server is having trouble (error \(status)). Please try again later."
        case .httpStatus(let status):
            "The server refused the request (error \(status))."
        case .decodingFailed:
            "The server sent data this version of the app cannot read."
        case .timedOut:
            "The server took too long to answer. Please try again."
        case .storageFailed(let reason) where !reason.isEmpty:
            // The file and the cause (full, locked, read-only, damaged): the user can act on them.
            // A reason that is a sentence of its own keeps its full stop, never two.
            "The data stored on this device cannot be read or written: \(reason)"
                + (reason.hasSuffix(".") || reason.hasSuffix("!") || reason.hasSuffix("?") ? "" : ".")
        case .storageFailed:
            "The data stored on this device cannot be read or written."
        case .cancelled:
            "Cancelled."
        case .notTheAPI:
            "The network answered with a page that is not the API's (a sign-in page?). Nothing was sent; sign in to the network and try again."
        case .answerLost:
            "The server may have received the change; it will be checked at the next sync."
        case .moved(let location) where location.isEmpty:
            "The API answered that it moved, without saying where. Nothing was sent there; your changes wait."
        case .moved(let location):
            "The API answered that it moved to \(location). Nothing was sent there; your changes wait until the app uses that address."
        }
    }
}

extension ServiceRequestError {
    /// What went wrong, as precisely as it is known: for the device's storage, the file and the
    /// cause (locked, read-only, full, damaged); otherwise ``userMessage``.
    public var cause: String {
        if case .storageFailed(let reason) = self { return reason }
        return userMessage
    }
}
