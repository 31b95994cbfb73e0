/// What a promise keeps besides its phase, in one field: while pending, what cancelling it does;
/// once settled and while its handlers run, the handlers registered meanwhile. The two are never
/// needed at once, and a field of one reference keeps every promise small (see ``LockedBuffer``).
@usableFromInline
enum PromiseAside<Value: Sendable>: Sendable {
    /// Cancelling the promise runs this closure: the work behind it stops.
    case cancelAction(CancelAction)
    /// Cancelling the promise cancels the one it waits on, with no closure to allocate.
    case cancelUpstream(UpstreamPromise)
    /// Handlers registered while the settling thread ran the earlier ones, in order.
    case late([Handlers<Value>.Entry])

    /// Whether this says what cancelling does.
    @inlinable
    var cancels: Bool {
        switch self {
        case .cancelAction, .cancelUpstream: true
        case .late: false
        }
    }

    /// Does what cancelling the promise does; nothing for late handlers.
    @inlinable
    func cancel() {
        switch self {
        case .cancelAction(let action): action.run()
        case .cancelUpstream(let upstream): upstream.cancel()
        case .late: break
        }
    }
}

/// A cancellation handler, boxed so that ``PromiseAside`` stays one reference wide.
@usableFromInline
final class CancelAction: Sendable {
    @usableFromInline
    let run: @Sendable () -> Void

    @inlinable
    init(_ run: @escaping @Sendable () -> Void) {
        self.run = run
    }
}

/// The storage of a promise that another waits on, to cancel it when that other is cancelled.
@usableFromInline
struct UpstreamPromise: @unchecked Sendable {
    // `@unchecked Sendable` is sound: the object is a `PromiseStorage` (a `ManagedBuffer`, which
    // cannot conform to `Sendable`), whose state is only reached under its lock (see `Locked`), and
    // the only use made of it here is `cancel`, which takes that lock.
    @usableFromInline
    let storage: AnyObject

    /// Refers to `promise`'s storage; `nil` for a promise settled from the start, which nothing
    /// can cancel.
    @inlinable
    init?<Upstream>(_ promise: Promise<Upstream>) {
        guard let state = promise.state else { return nil }
        storage = state.buffer
    }

    /// Cancels the promise. Its value type is not known here, so the storage is asked through a
    /// protocol: a cancellation is rare, and this saves a closure on every promise that may see one.
    @usableFromInline
    func cancel() {
        (storage as? any CancellableStorage)?.cancelPromise()
    }
}

/// A promise's storage, cancelled without knowing its value type.
@usableFromInline
protocol CancellableStorage: AnyObject {
    /// Cancels the promise this storage backs.
    func cancelPromise()
}

extension PromiseStorage: CancellableStorage {
    @usableFromInline
    func cancelPromise() {
        Promise(storage: self).cancel()
    }
}
