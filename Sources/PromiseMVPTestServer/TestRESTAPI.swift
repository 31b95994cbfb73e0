/// Several ``TestResourceAPI`` collections behind one ``TestHTTPServer``, each answering the
/// requests whose path starts with its name: an API of related collections (projects and their
/// tasks), with ``TestResourceAPI/requiring(_:in:)`` for the rules between them.
///
/// ```swift
/// let projects = TestResourceAPI(collection: "projects")
/// let tasks = TestResourceAPI(collection: "tasks")
/// tasks.requiring("projectID", in: projects)
/// let server = try TestHTTPServer(responder: TestRESTAPI(projects, tasks).respond)
/// ```
public struct TestRESTAPI: Sendable {
    /// The collections, by their first path segment.
    public let collections: [String: TestResourceAPI]

    /// The API of `collections`.
    ///
    /// - Parameter collections: The collections; two of one name keep the last.
    public init(_ collections: TestResourceAPI...) {
        self.collections = Dictionary(collections.map { ($0.collection, $0) }) { _, last in last }
    }

    /// The answer of the collection the request's path names, or `404` when none does.
    ///
    /// - Parameter request: The request.
    /// - Returns: The reply.
    public func respond(_ request: TestHTTPServer.Request) -> TestHTTPServer.Reply {
        let (path, _) = TestResourceAPI.split(request.path)
        let first = path.split(separator: "/").first.map(String.init) ?? ""
        return collections[first]?.respond(request) ?? TestResourceAPI.error(404, "no collection \(first)")
    }
}
