/// One object that waits on many promises of the same type at once, told which one settled by its
/// index: `when` registers it on every promise instead of a closure per promise.
@usableFromInline
final class Gathering<Value: Sendable>: Sendable {
    /// Called once for each promise the gathering waits on, when it settles, with the promise's
    /// position among them.
    @usableFromInline
    let receive: @Sendable (Resolution<Value>, Int) -> Void

    @inlinable
    init(_ receive: @escaping @Sendable (Resolution<Value>, Int) -> Void) {
        self.receive = receive
    }
}
