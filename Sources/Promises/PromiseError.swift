/// The errors the promise operators themselves produce.
public enum PromiseError: Error, Equatable, Sendable {
    /// `timeout(seconds:)` elapsed before the promise settled.
    case timedOut
    /// `compactMap` received `nil` from its transform, so there is no value to pass on.
    case compactMapReturnedNil
    /// `race` was given no promises, so nothing can ever win.
    case emptyRace
}
