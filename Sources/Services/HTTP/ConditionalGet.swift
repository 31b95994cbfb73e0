/// The answer to a conditional GET (``APIClient/get(_:as:ifChangedSince:headers:)``).
public enum ConditionalGet<Response: Sendable>: Sendable {
    /// The API sent the resource: it changed, or no validators were sent. `validators` describe
    /// this answer, to keep with it; `nil` when the API sent none.
    case changed(Response, validators: CacheValidators?)
    /// `304 Not Modified`: the copy the validators describe is current; nothing was sent.
    case notModified
}
