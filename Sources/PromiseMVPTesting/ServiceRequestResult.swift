public import Services

/// What a mocked service request should do: succeed with its model, or fail with an error.
public enum ServiceRequestResult: Sendable, Equatable {
    /// Fulfil with the model.
    case success
    /// Reject with the error.
    case error(ServiceRequestError)
}
