/// Why an upload stopped for good: what sending it again will not change. A lost connection, a
/// timeout or a `5xx` is not one of these: it rejects with its own error, and the upload resumes
/// from where the API stands when it is asked again.
public enum UploadError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The API refused the file (`400`, `403`, `413`, `415`, `412` for the protocol's version),
    /// with the start of what it said.
    case refused(status: Int, reason: String)
    /// The API said it holds `offset` bytes, more than the `sent` this device has given it: the
    /// API's fault, never taken as progress.
    case offsetBeyondSent(offset: Int64, sent: Int64)
    /// An answer lacked what the protocol requires, such as a creation without `Location`.
    case notResumable(reason: String)
    /// The kept file could not be read (gone, or shorter than when it was kept).
    case fileUnreadable(path: String, reason: String)

    /// The failure in words, for a log or a screen.
    public var description: String {
        switch self {
        case .refused(let status, let reason):
            "the API refused the upload (\(status))" + (reason.isEmpty ? "" : ": \(reason)")
        case .offsetBeyondSent(let offset, let sent):
            "the API says it holds \(offset) bytes of the upload, but only \(sent) were sent"
        case .notResumable(let reason): "the upload cannot go on: \(reason)"
        case .fileUnreadable(let path, let reason): "could not read \(path) to upload it: \(reason)"
        }
    }
}

extension UploadError {
    /// The error an upload rejects with: a refusal (`400`, `403`, `412`, `413`, `415`) named as
    /// one, any other error as it is.
    static func named(_ error: any Error) -> any Error {
        guard let status = FailureClass(error).status, [400, 403, 412, 413, 415].contains(status),
            case .httpStatus(_, let body)? = error as? APIError
        else { return error }
        return UploadError.refused(status: status, reason: body)
    }
}
