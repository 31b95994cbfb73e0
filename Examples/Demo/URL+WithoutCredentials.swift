import Foundation

extension URL {
    /// The address as it may be shown: without a user name or password given in it.
    var withoutCredentials: String {
        guard user != nil || password != nil,
            var components = URLComponents(url: self, resolvingAgainstBaseURL: false)
        else { return absoluteString }
        components.user = nil
        components.password = nil
        return components.string ?? absoluteString
    }
}
