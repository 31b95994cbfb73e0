/// The HTTP methods ``APIClient`` sends.
///
/// More cases may be added in a later version: a `switch` over it needs a `default`.
public enum HTTPMethod: String, Sendable {
    /// Reads a resource.
    case get = "GET"
    /// Creates a resource.
    case post = "POST"
    /// Replaces a resource.
    case put = "PUT"
    /// Deletes a resource.
    case delete = "DELETE"
    /// Changes part of a resource: a tus upload's next bytes (``FileUploader``).
    case patch = "PATCH"
    /// Asks for a resource's header fields only: where a tus upload stands.
    case head = "HEAD"
}
