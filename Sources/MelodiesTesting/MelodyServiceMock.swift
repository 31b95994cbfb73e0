public import Melodies
public import PromiseMVPTesting

/// A ``MelodyService`` that answers with ``Melody/mocks()`` or the error a test chooses, at once.
///
/// ```swift
/// let melodyService = MelodyServiceMock()
/// melodyService.emulatedResult = .error(.noNetwork)
/// ```
public final class MelodyServiceMock: MelodyService, ServiceRequestMock {
    /// What the next `getMelodies()` does: succeed with the mocks, or fail with an error.
    public var emulatedResult: ServiceRequestResult = .error(.unknownError)

    /// Makes a service that fails with `unknownError` until told otherwise.
    public init() {}

    /// The mocks, or the emulated error.
    ///
    /// - Returns: An already settled promise.
    public func getMelodies() -> Promise<[Melody]> {
        mock(result: emulatedResult, model: Melody.mocks())
    }
}
