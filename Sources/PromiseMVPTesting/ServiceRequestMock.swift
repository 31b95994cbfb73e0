public import Promises

/// Lets a test double answer like a real service: adopt it, and return
/// `mock(result: emulatedResult, model: ...)` from each service method.
///
/// ```swift
/// final class MelodyServiceMock: MelodyService, ServiceRequestMock {
///     var emulatedResult: ServiceRequestResult = .error(.unknownError)
///     func getMelodies() -> Promise<[Melody]> {
///         mock(result: emulatedResult, model: Melody.mocks())
///     }
/// }
/// ```
public protocol ServiceRequestMock {}

extension ServiceRequestMock {
    /// A promise fulfilled with `model` or rejected with the error, as `result` says.
    ///
    /// The promise is already settled, as a real service's cache answer can be; handlers still run
    /// later, on their queue, so a test must wait for it (see ``PromiseExpectations``).
    ///
    /// - Parameters:
    ///   - result: What the request should do.
    ///   - model: The value to fulfil with on success.
    /// - Returns: The settled promise.
    public func mock<Model: Sendable>(result: ServiceRequestResult, model: Model) -> Promise<Model> {
        Promise { seal in
            switch result {
            case .success:
                seal.fulfill(model)
            case .error(let requestError):
                seal.reject(requestError)
            }
        }
    }
}
