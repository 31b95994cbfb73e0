import Foundation
import Promises
import Services

/// Collections that name each other: a body naming a resource its API does not hold is refused,
/// as an API that checks references does.
extension TestResourceAPI {
    /// A field of this collection's resources naming a resource of `parent`.
    struct Reference {
        let field: String
        let parent: TestResourceAPI
    }

    /// Refuses (`400`, `{"error": "unknown <field> <id>"}`) a create or an update whose `field`
    /// names a resource `parent` does not hold: a task naming a project the API has not made. A
    /// body without the field, or with `null`, is taken. `parent` may be this API (a sub-task
    /// naming its parent task); two APIs must not require each other (each checks the other
    /// while answering).
    ///
    /// ```swift
    /// let projects = TestResourceAPI(collection: "projects")
    /// let tasks = TestResourceAPI(collection: "tasks")
    /// tasks.requiring("projectID", in: projects)
    /// ```
    ///
    /// - Parameters:
    ///   - field: The field's name in the JSON body.
    ///   - parent: The API of the collection it names.
    public func requiring(_ field: String, in parent: TestResourceAPI) {
        lock.withLock { references.append(Reference(field: field, parent: parent)) }
    }

    /// Why `body` names a resource that is not there, or `nil`. Called holding `lock`.
    func unknownReference(in body: Data) -> String? {
        guard !references.isEmpty,
            let object = (try? JSONSerialization.jsonObject(with: body)) as? [String: Any]
        else { return nil }
        for reference in references {
            guard let id = object[reference.field] as? String else { continue }
            let held =
                reference.parent === self
                ? stored[IdentifierKey(id)] != nil : reference.parent.resource(id) != nil
            if !held { return "unknown \(reference.field) \(id)" }
        }
        return nil
    }
}
