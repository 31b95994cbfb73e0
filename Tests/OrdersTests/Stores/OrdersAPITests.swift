import Foundation
import OrdersTesting
import Testing

/// `OrdersAPI` alone, over a server that answers what a real shop may: how each refusal reaches
/// the caller as an ``OrdersStoreError``.
@Suite("Orders API")
struct OrdersAPITests {
    /// An order the shop keeps, with the identifier and version it gave.
    static var kept: Order {
        var order = validOrder()
        order.id = "o-1"
        order.version = "v2"
        return order
    }

    /// The reason `update` of the kept order fails with, when the shop answers `status` and `body`.
    func refusal(_ status: Int, body: String) async throws -> OrdersStoreError.Reason? {
        let server = try TestHTTPServer { _ in (status, body) }
        let api = OrdersAPI(client: APIClient(baseURL: server.baseURL, timeout: 30, retry: .never))
        let error = await PromiseExpectations.error(of: api.updateOrder(Self.kept))
        return (error as? OrdersStoreError)?.reason
    }

    @Test("a 412 is a conflict that carries the shop's order, read from the answer")
    func preconditionFailedIsAConflictWithTheirs() async throws {
        // Given: the shop's copy, changed on another device
        var theirs = Self.kept
        theirs.firstName = "Caroline"
        theirs.version = "v3"
        let body = String(decoding: try APIClient.encode(theirs), as: UTF8.self)

        // When
        let reason = try await refusal(412, body: body)

        // Then
        #expect(reason == .conflict(theirs: theirs))
    }

    @Test("a 412 whose body is not an order is still a conflict, without the shop's copy")
    func preconditionFailedWithoutAnOrder() async throws {
        // When
        let reason = try await refusal(412, body: "precondition failed")

        // Then
        #expect(reason == .conflict(theirs: nil))
    }

    @Test("a 422 is the shop's refusal per field, as its body lists them")
    func unprocessableIsInvalidPerField() async throws {
        // Given
        let body = #"{"errors":[{"field":"email","message":"This address bounced."}]}"#

        // When
        let reason = try await refusal(422, body: body)

        // Then
        #expect(reason == .invalid([OrderFieldError(field: .email, message: "This address bounced.")]))
    }

    @Test("a 422 without field errors is still a refusal, of the order's items")
    func unprocessableWithoutFields() async throws {
        // When
        let reason = try await refusal(422, body: "no")

        // Then
        #expect(reason == .invalid([OrderFieldError(field: .items, message: "The shop refused this order.")]))
    }

    @Test("a 410 is an order the shop no longer has")
    func goneIsNotFound() async throws {
        // When
        let reason = try await refusal(410, body: "")

        // Then
        #expect(reason == .notFound(id: "o-1"))
    }
}
