import Services

/// A resource shown with the resource it names (a task with its project): what
/// ``OfflineCollection/snapshot(joining:on:)`` and
/// ``OfflineCollection/observe(joining:on:on:_:)`` give a screen that shows a child with its
/// parent's fields, offline as online.
public struct OfflineJoined<Resource: OfflineResource, Parent: OfflineResource>: Sendable {
    /// The resource and its sync state.
    public let item: OfflineItem<Resource>
    /// The resource it names, as this device shows it; `nil` when it names none, or one this
    /// device does not keep.
    public let parent: Parent?

    /// Makes a joined resource.
    ///
    /// - Parameters:
    ///   - item: The resource and its sync state.
    ///   - parent: The resource it names.
    public init(item: OfflineItem<Resource>, parent: Parent?) {
        self.item = item
        self.parent = parent
    }
}

extension OfflineJoined: Equatable where Resource: Equatable, Parent: Equatable {}
