import Foundation
import Promises

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

extension ServiceRequestError {
    /// Maps any error that reaches a service to the case a caller acts on. This is the only place
    /// that decides it.
    ///
    /// | error | case |
    /// | --- | --- |
    /// | a `ServiceRequestError` | itself |
    /// | a ``ServiceRequestErrorConvertible`` | the error it stands for |
    /// | `URLError` not connected, connection lost, cannot connect, cannot find host, DNS failure, roaming off, data not allowed | ``noNetwork`` |
    /// | `URLError.timedOut`, `PromiseError.timedOut` | ``timedOut`` |
    /// | `URLError.cancelled`, `CancellationError`, any cancellation | ``cancelled`` |
    /// | ``APIError/responseTooLarge(bytes:limit:)`` | ``decodingFailed(type:reason:)`` |
    /// | ``APIError/httpStatus(_:body:)`` | ``httpStatus(_:)`` |
    /// | ``APIError/notTheAPI(reason:)``; ``APIError/redirected(status:location:)`` 302, 303, 307 (how a captive portal answers) | ``notTheAPI`` |
    /// | ``APIError/redirected(status:location:)`` 301, 308 (moved permanently) | ``moved(to:)`` |
    /// | ``APIError/decoding(type:reason:)``, `DecodingError` | ``decodingFailed(type:reason:)`` |
    /// | ``DatabaseError`` | ``storageFailed(reason:)`` |
    /// | anything else | ``unknownError`` |
    ///
    /// - Parameter error: The error to map.
    public init(_ error: any Error) {
        switch error {
        case let error as ServiceRequestError:
            self = error
        case let error as any ServiceRequestErrorConvertible:
            self = error.serviceRequestError
        case let error as URLError:
            self = Self.mapping(error.code)
        case let error as APIError:
            self = Self.mapping(error)
        case let error as DecodingError:
            self = .decodingFailed(type: "\(error.decodedType)", reason: error.reason)
        case let error as DatabaseError:
            self = .storageFailed(reason: error.reason)
        case PromiseError.timedOut:
            self = .timedOut
        case _ where error.isCancellation:
            self = .cancelled
        default:
            self = .unknownError
        }
    }

    /// As ``FailureClass`` reads the code (the one list of them): out of reach is no network,
    /// unless it is the time running out.
    private static func mapping(_ code: URLError.Code) -> ServiceRequestError {
        switch FailureClass(URLError(code)).kind {
        case .offline: code == .timedOut ? .timedOut : .noNetwork
        case .cancelled: .cancelled
        default: .unknownError
        }
    }

    private static func mapping(_ error: APIError) -> ServiceRequestError {
        switch error {
        case .httpStatus(let status, _):
            .httpStatus(status)
        case .decoding(let type, let reason):
            .decodingFailed(type: type, reason: reason)
        case .notHTTP:
            .unknownError
        case .responseTooLarge(let bytes, let limit):
            .decodingFailed(type: "response", reason: "\(bytes) bytes, more than the \(limit) accepted")
        case .notTheAPI:
            .notTheAPI
        case .redirected(let status, let location) where status == 301 || status == 308:
            // "Moved permanently": the API says where it lives now.
            .moved(to: location)
        case .redirected:
            .notTheAPI
        }
    }
}
