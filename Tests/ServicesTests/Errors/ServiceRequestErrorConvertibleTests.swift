import Foundation
import PromiseMVPTesting
import Promises
import Testing

@testable import Services

@Suite("ServiceRequestError mapping of feature errors")
struct ServiceRequestErrorConvertibleTests {
    struct StoreFailure: ServiceRequestErrorConvertible {
        var serviceRequestError: ServiceRequestError { .timedOut }
    }

    @Test("an error that knows its service error maps to it")
    func convertibleMaps() {
        #expect(ServiceRequestError(StoreFailure()) == .timedOut)
    }
}
