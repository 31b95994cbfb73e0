import Foundation
import Promises

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The token endpoint of RFC 6749: a form-encoded POST of a grant, answered with a JSON token or a
/// JSON error. Any answer that is not a bearer token with an expiry ends the sign-in.
struct TokenEndpoint: Sendable {
    let url: URL
    let clientID: String?
    let timeout: Double
    let now: @Sendable () -> Date

    /// The answer of section 5.1.
    private struct Answer: Decodable {
        let accessToken: String
        let tokenType: String
        let expiresIn: Double?
        let refreshToken: String?

        enum CodingKeys: String, CodingKey {
            case accessToken = "access_token"
            case tokenType = "token_type"
            case expiresIn = "expires_in"
            case refreshToken = "refresh_token"
        }
    }

    /// The error of section 5.2.
    private struct Refusal: Decodable {
        let error: String
    }

    /// Asks for a token with `parameters`; rejects with ``AuthenticationError`` when the endpoint
    /// refused or answered something that is not a token, with the network's error when it could
    /// not be reached.
    func grant(account: String, _ parameters: [String: String]) -> Promise<TokenGrant> {
        var fields = parameters
        if let clientID { fields["client_id"] = clientID }
        let body = Data(Self.formEncoded(fields).utf8)
        let client = APIClient(baseURL: url.deletingLastPathComponent(), timeout: timeout, retry: .never)
        let now = now
        return client.send(
            .post, url.lastPathComponent, body: body,
            headers: ["Content-Type": "application/x-www-form-urlencoded"]
        )
        .recover(on: .inline) { error -> Promise<Data> in
            let failure = FailureClass(error)
            switch failure.kind {
            case .offline, .cancelled:
                // Not reached: the sign-in stands, and the request fails as offline.
                throw error
            case .later, .serverTrouble:
                // Reached, and failing or busy: an outage of the sign-in service is not a refused
                // sign-in. It stands; whoever retries waits (its `Retry-After`, else the backoff).
                throw SignInServiceUnavailable(
                    status: failure.status ?? 503, retryAfter: failure.waitAsked)
            case .refused, .signedOut:
                guard case .httpStatus(let status, let said) = error as? APIError else { break }
                let code = (try? JSONDecoder().decode(Refusal.self, from: Data(said.utf8)))?.error
                throw AuthenticationError(
                    code == "invalid_grant"
                        ? "The user name or password was refused, or the sign-in was ended elsewhere."
                        : "The sign-in service refused the request (error \(status)).")
            case .other:
                break
            }
            throw AuthenticationError("The sign-in service answered something that is not a sign-in.")
        }
        .map(on: .inline) { data in
            guard let answer = try? JSONDecoder().decode(Answer.self, from: data),
                answer.tokenType.lowercased() == "bearer", !answer.accessToken.isEmpty
            else {
                throw AuthenticationError("The sign-in service answered something that is not a sign-in.")
            }
            guard let seconds = answer.expiresIn, seconds > 0 else {
                throw AuthenticationError("The sign-in service gave a token without an expiry.")
            }
            let grantedAt = now()
            return TokenGrant(
                account: account, accessToken: answer.accessToken, grantedAt: grantedAt,
                expiresAt: grantedAt.addingTimeInterval(seconds),
                refreshToken: answer.refreshToken ?? parameters["refresh_token"])
        }
    }

    /// `application/x-www-form-urlencoded`, as HTML forms write it: unreserved characters as they
    /// are, everything else percent-encoded, in a stable order.
    static func formEncoded(_ fields: [String: String]) -> String {
        let allowed = CharacterSet(
            charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")
        return fields.sorted { $0.key < $1.key }.map { key, value in
            let name = key.addingPercentEncoding(withAllowedCharacters: allowed) ?? ""
            let text = value.addingPercentEncoding(withAllowedCharacters: allowed) ?? ""
            return "\(name)=\(text)"
        }.joined(separator: "&")
    }
}
