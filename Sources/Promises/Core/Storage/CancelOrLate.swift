/// What a promise keeps besides its phase, in one field: while pending, what cancelling it does;
/// once settled and while its handlers run, the handlers registered meanwhile. The two are never
/// needed at once, and a field of one reference keeps every promise small (see ``LockedBuffer``).
@usableFromInline
enum CancelOrLate<Value: Sendable>: Sendable {
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

/// A cancellation handler, boxed so that ``CancelOrLate`` stays one reference wide.
@usableFromInline
final class CancelAction: Sendable {
    @usableFromInline
    let run: @Sendable () -> Void

    @inlinable
    init(_ run: @escaping @Sendable () -> Void) {
        self.run = run
    }
}

/// A weak reference to a promise's storage, to cancel that promise if it is still there: what
/// ``UpstreamPromise`` and ``UpstreamPromises`` hold.
///
/// Weak: the upstream promise holds the downstream one among its handlers, so a strong link back
/// would make a cycle that keeps both alive for ever once the upstream's seal is dropped
/// unsettled. The work behind an upstream promise (its seal, its task) keeps it alive while that
/// work runs; once nothing does, there is nothing left to cancel.
@usableFromInline
struct CancelLink {
    @usableFromInline
    weak var storage: AnyObject?

    /// Refers to `promise`'s storage; `nil` for a promise settled from the start, which nothing
    /// can cancel.
    @inlinable
    init?<Upstream>(_ promise: Promise<Upstream>) {
        guard let shared = promise.storage else { return nil }
        storage = shared
    }

    /// Cancels the promise, if it is still there. Its value type is not known here, so the storage
    /// is asked through a protocol: a cancellation is rare, and this saves a closure on every
    /// promise that may see one.
    @usableFromInline
    func cancel() {
        (storage as? any CancellableStorage)?.cancelPromise()
    }
}

/// The storage of a promise that another waits on, to cancel it when that other is cancelled.
///
/// A class, so that ``CancelOrLate`` stays one (strong, spare-bit carrying) reference wide: a weak
/// reference kept inline would cost every promise 16 bytes more. Only promises that can be
/// cancelled (their upstream has work to stop) make one.
@usableFromInline
final class UpstreamPromise: @unchecked Sendable {
    // `@unchecked Sendable` is sound: the object is a `PromiseStorage` (a `ManagedBuffer`, which
    // cannot conform to `Sendable`), whose state is only reached under its lock (see `Locked`), and
    // the only use made of it here is `cancel`, which takes that lock. The link is only written in
    // `init`, and the runtime reads weak references atomically.
    @usableFromInline
    let link: CancelLink

    /// Refers to `promise`'s storage; `nil` for a promise settled from the start.
    @inlinable
    init?<Upstream>(_ promise: Promise<Upstream>) {
        guard let link = CancelLink(promise) else { return nil }
        self.link = link
    }

    /// Cancels the promise, if it is still there.
    @usableFromInline
    func cancel() {
        link.cancel()
    }
}

/// The inputs of a combinator (`when`, `race`), to cancel them when its result is cancelled: each
/// held weakly, as ``UpstreamPromise`` holds one, all in one object, so that an input costs an
/// element of an array rather than an object of its own.
@usableFromInline
final class UpstreamPromises: @unchecked Sendable {
    // `@unchecked Sendable` is sound: `links` is appended to only by the combinator that made the
    // object, before it hands it to `setCancellation`, which publishes it under the result's lock;
    // from then on it is only read. The storages are reached only through `cancelPromise`, which
    // takes their own lock, and the runtime reads weak references atomically.
    @usableFromInline
    var links: [CancelLink] = []

    /// Makes an empty set, with room for `capacity` inputs.
    @inlinable
    init(capacity: Int) {
        links.reserveCapacity(capacity)
    }

    /// Whether no input can be cancelled.
    @inlinable
    var isEmpty: Bool { links.isEmpty }

    /// Adds `promise`; nothing for a promise settled from the start, which nothing can cancel.
    @inlinable
    func append<Input>(_ promise: Promise<Input>) {
        if let link = CancelLink(promise) { links.append(link) }
    }

    /// Cancels every input that is still there.
    @usableFromInline
    func cancel() {
        for link in links { link.cancel() }
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
