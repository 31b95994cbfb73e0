import Services

/// Several syncs reported as one.
extension OutboxSyncReport {
    /// The reports of several syncs run one after the other, as one: what each sent, refused,
    /// merged and created, how many wait in all, the first reason one stopped and the earliest
    /// time one may go again.
    ///
    /// - Parameter reports: The reports, in the order the syncs ran.
    public init(combining reports: [OutboxSyncReport]) {
        self.init()
        for report in reports {
            sent += report.sent
            refused += report.refused
            stuck += report.stuck
            conflicted += report.conflicted
            merged += report.merged
            newIDs.merge(report.newIDs) { _, later in later }
            waiting += report.waiting
            stoppedBecause = stoppedBecause ?? report.stoppedBecause
            retryAt = [retryAt, report.retryAt].compactMap { $0 }.min()
            sendingElsewhere = sendingElsewhere || report.sendingElsewhere
            handedOff += report.handedOff
        }
    }
}

extension OutboxSyncReport {
    /// An empty report that says whether another process's sync held the claim.
    init(sendingElsewhere: Bool) {
        self.init()
        self.sendingElsewhere = sendingElsewhere
    }
}
