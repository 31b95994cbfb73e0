import Foundation
import Promises

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

extension APIClient {
    /// As ``send(_:_:body:headers:)``, with the answer's status and header fields.
    func answer(
        _ method: HTTPMethod, _ path: String, body: Data?, headers: [String: String] = [:]
    ) -> Promise<Answer> {
        exchangeAnswer(method, path, body: body, headers: headers).recover(on: .inline, policy: .allErrors) {
            error -> Promise<Answer> in
            if error is ConflictTooLarge { throw APIError.httpStatus(412, body: "") }
            throw (error as? RetryLater)?.error ?? error
        }
    }

    /// An answer the API gave: its status, the header fields a caller reads, and the body.
    struct Answer: Sendable {
        let status: Int
        /// `ETag` and `Last-Modified`, as the API wrote them; `nil` when absent.
        let etag: String?
        let lastModified: String?
        /// The `Sync-Token` of a listing, for a change feed.
        let syncToken: String?
        let body: Data
        /// Every header field, its name in lower case: what an upload reads (`location`,
        /// `upload-offset`).
        let fields: [String: String]

        init(_ body: Data, _ response: HTTPURLResponse) {
            status = response.statusCode
            etag = Self.validator(response, "ETag")
            lastModified = Self.validator(response, "Last-Modified")
            syncToken = Self.validator(response, "Sync-Token")
            self.body = body
            var fields: [String: String] = [:]
            for case (let name as String, let value as String) in response.allHeaderFields {
                fields[name.lowercased()] = value
            }
            self.fields = fields
        }

        /// The longest validator kept, in bytes: one longer is not kept (the next refresh lists
        /// whole, unconditionally), since sending it back in a header or a query would make every
        /// request too large for the API to take.
        static let longestValidator = 4_096

        /// A validator header field, when present and no longer than ``longestValidator``.
        private static func validator(_ response: HTTPURLResponse, _ field: String) -> String? {
            guard let value = response.value(forHTTPHeaderField: field), value.utf8.count <= longestValidator
            else { return nil }
            return value
        }

        /// What a conditional GET sends back to ask whether this answer is still current.
        var validators: CacheValidators? {
            etag == nil && lastModified == nil && syncToken == nil
                ? nil : CacheValidators(etag: etag, lastModified: lastModified, syncToken: syncToken)
        }
    }

    /// Whether a request header field makes a GET conditional, so that a `304` answers it.
    static func isConditional(_ field: String) -> Bool {
        let field = field.lowercased()
        return field == "if-none-match" || field == "if-modified-since"
    }
}
