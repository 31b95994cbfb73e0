/// A guarantee fulfilled once `seconds` have passed.
///
/// Use it for a delay inside a chain, for example `after(seconds: 0.3).then { ... }`.
///
/// - Parameter seconds: The delay; zero, negative or not finite means as soon as possible.
/// - Returns: A guarantee fulfilled after the delay.
public func after(seconds: Double) -> Guarantee<Void> {
    let (guarantee, resolve) = Guarantee<Void>.pending()
    _ = ScheduledWork(after: seconds) { resolve(()) }
    return guarantee
}
