/// Why a request could not be made for a signed-in user: nobody is signed in, or the sign-in
/// ended (the refresh token was refused, the token endpoint answered something that is not a
/// token). The user must sign in again; nothing waiting is lost. Once mapped it is
/// ``ServiceRequestError/httpStatus(_:)`` `401`, which the outbox takes as "wait for a sign-in".
public struct AuthenticationError: Error, Equatable, Sendable, CustomStringConvertible,
    ServiceRequestErrorConvertible
{
    /// What ended the sign-in, in words for the user; never a token or a password.
    public let reason: String

    /// Makes the error.
    ///
    /// - Parameter reason: What ended the sign-in.
    public init(_ reason: String) {
        self.reason = reason
    }

    /// Nobody is signed in.
    public static let signedOut = AuthenticationError("Nobody is signed in.")

    /// "Sign in again: " and the reason.
    public var description: String { "Sign in again: \(reason)" }

    /// `401`: the request was not made for lack of a sign-in.
    public var serviceRequestError: ServiceRequestError { .httpStatus(401) }
}
