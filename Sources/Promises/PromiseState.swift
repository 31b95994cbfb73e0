/// Everything about a promise that changes, guarded by the promise's mutex.
struct PromiseState<Value: Sendable> {
    enum Phase {
        case pending(Handlers<Value>)
        case fulfilled(Value)
        case rejected(any Error, handled: Bool)
    }

    var phase: Phase
    /// Runs if the promise is cancelled while pending; its presence makes the promise cancellable.
    var onCancel: (@Sendable () -> Void)?
    /// Set once any handler was registered: a rejection somebody saw is not reported as unhandled.
    var observed = false
    /// Set while the settling thread runs the handlers; handlers registered meanwhile queue up in
    /// `late` so that they still run after the earlier ones.
    var draining = false
    var late: Handlers<Value> = .none
    /// False for promises made by operators: when one is dropped while pending, the promise it
    /// waited on was dropped too and reports it, once.
    var reportsAbandonment: Bool

    init(phase: Phase = .pending(.none), reportsAbandonment: Bool = true) {
        self.phase = phase
        self.reportsAbandonment = reportsAbandonment
    }

    var resolution: Resolution<Value>? {
        switch phase {
        case .pending: nil
        case .fulfilled(let value): .fulfilled(value)
        case .rejected(let error, let handled): .rejected(error, handled: handled)
        }
    }

    var isPending: Bool {
        if case .pending = phase { return true }
        return false
    }
}

extension PromiseState.Phase {
    init(_ resolution: Resolution<Value>) {
        switch resolution {
        case .fulfilled(let value): self = .fulfilled(value)
        case .rejected(let error, let handled): self = .rejected(error, handled: handled)
        }
    }
}
