import Dispatch

/// How a queue's mailbox is found: attached to the queue as a queue-specific value, made once.
extension QueueMailbox {
    static let key = DispatchSpecificKey<QueueMailbox>()
    /// Serialises making mailboxes, so that a queue never gets two.
    static let making = Locked(())

    /// The mailbox of `queue`, made on first use; `nil` for the global concurrent queues.
    static func mailbox(of queue: DispatchQueue) -> QueueMailbox? {
        if let mailbox = queue.getSpecific(key: key) {
            mailbox.published.acquire()
            return mailbox
        }
        guard !queue.label.hasPrefix("com.apple.root.") else { return nil }
        return making.withLock { _ in
            if let mailbox = queue.getSpecific(key: key) {
                return mailbox
            }
            let mailbox = QueueMailbox()
            mailbox.published.publish()
            queue.setSpecific(key: key, value: mailbox)
            return mailbox
        }
    }
}
