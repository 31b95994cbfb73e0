public import Dispatch

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

/// A guarantee fulfilled after `interval`, as `DispatchQueue.asyncAfter` counts it:
/// `after(.milliseconds(250))`. `.never` is never fulfilled.
///
/// - Parameter interval: How long to wait.
/// - Returns: A guarantee fulfilled once the interval has passed.
public func after(_ interval: DispatchTimeInterval) -> Guarantee<Void> {
    guard let seconds = interval.inSeconds else {
        return Guarantee(Promise<Void>.derived())  // silent when dropped: nothing was abandoned
    }
    return after(seconds: seconds)
}

extension DispatchTimeInterval {
    /// The interval in seconds; `nil` for `.never`.
    var inSeconds: Double? {
        switch self {
        case .seconds(let seconds): Double(seconds)
        case .milliseconds(let milliseconds): Double(milliseconds) / 1_000
        case .microseconds(let microseconds): Double(microseconds) / 1_000_000
        case .nanoseconds(let nanoseconds): Double(nanoseconds) / 1_000_000_000
        case .never: nil
        @unknown default: nil
        }
    }
}
