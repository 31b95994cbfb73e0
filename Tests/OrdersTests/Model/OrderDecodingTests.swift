import Foundation
import OfflineKit
import OrdersTesting
import Testing

/// An order from the API or the database is decoded strictly: an amount an order cannot take is
/// an error that says which, never a negative price on the screen.
@Suite("Order decoding")
struct OrderDecodingTests {
    /// Amy's order as JSON, with `replacing` swapped in for the text it names.
    static func json(replacing original: String, with replacement: String) throws -> Data {
        let data = try APIClient.encode(DeviceAndShop.amy)
        let text = String(decoding: data, as: UTF8.self)
        #expect(text.contains(original), "the sample has no \(original)")
        return Data(text.replacingOccurrences(of: original, with: replacement).utf8)
    }

    @Test("the sample order decodes as it was encoded")
    func roundTrip() throws {
        // Given / When / Then
        #expect(
            try APIClient.decode(Order.self, from: try APIClient.encode(DeviceAndShop.amy))
                == DeviceAndShop.amy)
    }

    @Test("an order's attachments are written and read back; an order with none has no attachments field")
    func attachmentsRoundTrip() throws {
        // Given
        var attached = DeviceAndShop.amy
        attached.attachments = [
            OfflineAttachment(
                id: "a1", name: "receipt.pdf", contentType: "application/pdf", size: 3, sha256: "abc")
        ]

        // When
        let written = try APIClient.encode(attached)
        let none = String(decoding: try APIClient.encode(DeviceAndShop.amy), as: UTF8.self)

        // Then
        #expect(try APIClient.decode(Order.self, from: written).attachments == attached.attachments)
        #expect(!none.contains("attachments"))
    }

    @Test(
        "a negative quantity, unit price or total is refused, naming the field",
        arguments: [
            (#""quantity":1"#, #""quantity":-1"#, "quantity"),
            (#""unitPrice":1"#, #""unitPrice":-12.5"#, "unitPrice"),
            (#""total":6.99"#, #""total":-6.99"#, "total"),
        ])
    func negativeAmounts(original: String, negative: String, field: String) throws {
        // Given
        let data = try Self.json(replacing: original, with: negative)

        // When
        let error = #expect(throws: APIError.self) { try APIClient.decode(Order.self, from: data) }

        // Then
        guard case .decoding(_, let reason)? = error else {
            Issue.record("not a decoding error: \(String(describing: error))")
            return
        }
        #expect(reason.contains(field) && reason.contains("below zero"), "\(reason)")
    }

    @Test("zero is an amount an order can take")
    func zeroIsFine() throws {
        // Given
        let data = try Self.json(replacing: #""unitPrice":1"#, with: #""unitPrice":0"#)

        // When / Then
        #expect(try APIClient.decode(Order.self, from: data).items.first?.unitPrice == 0)
    }
}
