public import OfflineKit
import Services

/// An order is kept and edited offline like any resource of an API: by its `id`, changed on top
/// of its `version` (see `OfflineCollection`).
extension Order: OfflineResource {}
