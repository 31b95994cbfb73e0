/// The errors the promise operators themselves produce.
///
/// More cases may be added in a later version: a `switch` over it needs a `default`.
public enum PromiseError: Error, Equatable, Sendable {
    /// `timeout(seconds:)` elapsed before the promise settled.
    case timedOut
    /// `compactMap` received `nil` from its transform, so there is no value to pass on.
    case compactMapReturnedNil
    /// `race` was given no promises, so nothing can ever win.
    case emptyRace
    /// A handler (`then`, `recover`) returned the very promise its step makes, which would wait on
    /// itself forever (Promises/A+ 2.3.1).
    case returnedSelf
    /// `firstValue` or `lastValue` found the sequence empty.
    case emptySequence
    /// `Seal.resolve(_:_:)` was given neither a value nor an error, which a callback API should
    /// never do.
    case invalidCallingConvention
    /// `when(fulfilled:concurrently:)` was asked to run fewer than one promise at a time, so none
    /// would ever start.
    case invalidConcurrency
}
