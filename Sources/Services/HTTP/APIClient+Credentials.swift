import Foundation
import Promises

/// Requests made for a signed-in user.
extension APIClient {
    /// This client, its requests made for `credentials`: each request to the API's own origin
    /// (scheme, host and port of ``baseURL``) carries `Authorization: Bearer <token>`, and no
    /// request to any other origin does (redirects to another origin are not followed either). A
    /// `401` refreshes the token once, shared by every request refused with it, and sends the
    /// request again once; a second `401` is the answer. A `403` is a refusal, as before.
    ///
    /// The copy shares no request in flight with this client or its other copies.
    ///
    /// - Parameter credentials: Who the requests are made for.
    /// - Returns: The client.
    public func authorized(by credentials: any Credentials) -> APIClient {
        var client = self
        client.credentials = credentials
        client.shared = InFlight()
        return client
    }

    /// Sends the request as ``attempt(_:_:body:headers:retry:)`` does, with the token when it goes
    /// to the API's origin, and once more with a new token after a `401`.
    func authorizedAttempt(
        _ method: HTTPMethod, _ url: URL, body: RequestBody?, headers: [String: String]
    ) -> Promise<Answer> {
        guard let credentials,
            BoundedTransfers.Delegate.origin(of: url) == BoundedTransfers.Delegate.origin(of: baseURL)
        else { return attempt(method, url, body: body, headers: headers, retry: 0) }
        let client = self
        @Sendable func send(_ token: String) -> Promise<Answer> {
            var signed = headers
            signed["Authorization"] = "Bearer \(token)"
            return client.attempt(method, url, body: body, headers: signed, retry: 0)
        }
        return credentials.accessToken().then(on: .inline) { token in
            send(token).recover(on: .inline) { error -> Promise<Answer> in
                guard FailureClass(error).kind == .signedOut else { throw error }
                return credentials.refresh(replacing: token).then(on: .inline) { send($0) }
            }
        }
    }
}
