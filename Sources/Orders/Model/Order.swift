public import Foundation
public import OfflineKit

/// An order in the shop.
///
/// Stores compute ``total`` from the items and the shipment method when they save an order; the
/// total passed in is never trusted.
public struct Order: Codable, Equatable, Hashable, Sendable {
    /// The store's identifier; `nil` until the order is created.
    public var id: String?
    /// When the order was placed.
    public var date: Date
    /// The customer's email address.
    public var email: String
    /// The customer's first name.
    public var firstName: String
    /// The customer's last name.
    public var lastName: String
    /// The customer's phone number.
    public var phone: String
    /// Where the bill goes.
    public var billingAddress: Address
    /// Where the order ships.
    public var shipmentAddress: Address
    /// How it is paid.
    public var paymentMethod: PaymentMethod
    /// How fast it ships.
    public var shipmentMethod: ShipmentMethod
    /// What was ordered.
    public var items: [OrderItem]
    /// What the customer pays.
    public var total: Decimal
    /// The shop's version of the order (its `version`, which changes with every change there);
    /// `nil` before creation, or from a shop without versions. An update or delete is made on top
    /// of it (`If-Match`), so that another device's change in between is never overwritten
    /// silently.
    public var version: String?
    /// The identifier of the shop's customer who placed it (`customerId` in the shop's JSON), or
    /// `nil`. It may name a customer created on this device and not sent yet: the order is then
    /// sent after the customer, naming the identifier the shop gave it.
    public var customerID: String?
    /// The files attached to it (a receipt, a photo), as the shop's JSON names them
    /// (`attachments`); empty when it has none, and then not written in its JSON at all. One
    /// attached on this device names its upload here until the file is uploaded (see
    /// `OfflineAttachments`).
    public var attachments: [OfflineAttachment]

    /// Makes an order; everything but the six fields every order has (id, date, email, names and
    /// total) defaults to empty.
    ///
    /// - Parameters:
    ///   - id: The store's identifier, `nil` before creation.
    ///   - date: When the order was placed.
    ///   - email: The customer's email address.
    ///   - firstName: The customer's first name.
    ///   - lastName: The customer's last name.
    ///   - phone: The customer's phone number.
    ///   - billingAddress: Where the bill goes.
    ///   - shipmentAddress: Where the order ships.
    ///   - paymentMethod: How it is paid.
    ///   - shipmentMethod: How fast it ships.
    ///   - items: What was ordered.
    ///   - total: What the customer pays.
    ///   - version: The shop's version; `nil` by default.
    ///   - customerID: The customer who placed it; `nil` by default.
    public init(
        id: String? = nil, date: Date, email: String, firstName: String, lastName: String, phone: String = "",
        billingAddress: Address = Address(), shipmentAddress: Address = Address(),
        paymentMethod: PaymentMethod = PaymentMethod(), shipmentMethod: ShipmentMethod = ShipmentMethod(),
        items: [OrderItem] = [], total: Decimal, version: String? = nil, customerID: String? = nil
    ) {
        self.init(
            id: id, date: date, email: email, firstName: firstName, lastName: lastName, phone: phone,
            billingAddress: billingAddress, shipmentAddress: shipmentAddress, paymentMethod: paymentMethod,
            shipmentMethod: shipmentMethod, items: items, total: total, version: version,
            customerID: customerID, attachments: [])
    }

    /// Makes an order with files attached to it; see
    /// ``init(id:date:email:firstName:lastName:phone:billingAddress:shipmentAddress:paymentMethod:shipmentMethod:items:total:version:customerID:)``
    /// for the rest.
    ///
    /// - Parameters:
    ///   - id: The store's identifier, `nil` before creation.
    ///   - date: When the order was placed.
    ///   - email: The customer's email address.
    ///   - firstName: The customer's first name.
    ///   - lastName: The customer's last name.
    ///   - phone: The customer's phone number.
    ///   - billingAddress: Where the bill goes.
    ///   - shipmentAddress: Where the order ships.
    ///   - paymentMethod: How it is paid.
    ///   - shipmentMethod: How fast it ships.
    ///   - items: What was ordered.
    ///   - total: What the customer pays.
    ///   - version: The shop's version.
    ///   - customerID: The customer who placed it.
    ///   - attachments: The files attached to it.
    public init(
        id: String? = nil, date: Date, email: String, firstName: String, lastName: String, phone: String = "",
        billingAddress: Address = Address(), shipmentAddress: Address = Address(),
        paymentMethod: PaymentMethod = PaymentMethod(), shipmentMethod: ShipmentMethod = ShipmentMethod(),
        items: [OrderItem] = [], total: Decimal, version: String? = nil, customerID: String? = nil,
        attachments: [OfflineAttachment]
    ) {
        self.id = id
        self.date = date
        self.email = email
        self.firstName = firstName
        self.lastName = lastName
        self.phone = phone
        self.billingAddress = billingAddress
        self.shipmentAddress = shipmentAddress
        self.paymentMethod = paymentMethod
        self.shipmentMethod = shipmentMethod
        self.items = items
        self.total = total
        self.version = version
        self.customerID = customerID
        self.attachments = attachments
    }

    /// The items' subtotals plus the shipment method's price: what a store saves as ``total``.
    public var computedTotal: Decimal {
        items.reduce(shipmentMethod.speed.price) { $0 + $1.subtotal }
    }
}

extension Order {
    /// The keys of an order's JSON, one per property.
    enum CodingKeys: String, CodingKey {
        case id, date, email, firstName, lastName, phone, billingAddress, shipmentAddress, paymentMethod
        case shipmentMethod, items, total, version
        case customerID = "customerId"
        case attachments
    }

    /// Decodes an order, refusing a negative total with a clear error: an amount an order cannot
    /// take is bad data, never shown as "-US$12.50" (the items' prices and quantities are checked
    /// by ``OrderItem/init(from:)``).
    ///
    /// - Parameter decoder: The decoder.
    /// - Throws: `DecodingError` for a missing or mistyped field, or a negative total.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            id: try container.decodeIfPresent(String.self, forKey: .id),
            date: try container.decode(Date.self, forKey: .date),
            email: try container.decode(String.self, forKey: .email),
            firstName: try container.decode(String.self, forKey: .firstName),
            lastName: try container.decode(String.self, forKey: .lastName),
            phone: try container.decode(String.self, forKey: .phone),
            billingAddress: try container.decode(Address.self, forKey: .billingAddress),
            shipmentAddress: try container.decode(Address.self, forKey: .shipmentAddress),
            paymentMethod: try container.decode(PaymentMethod.self, forKey: .paymentMethod),
            shipmentMethod: try container.decode(ShipmentMethod.self, forKey: .shipmentMethod),
            items: try container.decode([OrderItem].self, forKey: .items),
            total: try container.decodeNonNegative(Decimal.self, forKey: .total),
            version: try container.decodeIfPresent(String.self, forKey: .version),
            customerID: try container.decodeIfPresent(String.self, forKey: .customerID),
            attachments: try container.decodeIfPresent([OfflineAttachment].self, forKey: .attachments) ?? [])
    }

    /// Encodes an order as the shop's JSON; `attachments` only when it has some, so that an order
    /// without files is written as it always was.
    ///
    /// - Parameter encoder: The encoder.
    /// - Throws: What the encoder throws.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encodeIfPresent(id, forKey: .id)
        try container.encode(date, forKey: .date)
        try container.encode(email, forKey: .email)
        try container.encode(firstName, forKey: .firstName)
        try container.encode(lastName, forKey: .lastName)
        try container.encode(phone, forKey: .phone)
        try container.encode(billingAddress, forKey: .billingAddress)
        try container.encode(shipmentAddress, forKey: .shipmentAddress)
        try container.encode(paymentMethod, forKey: .paymentMethod)
        try container.encode(shipmentMethod, forKey: .shipmentMethod)
        try container.encode(items, forKey: .items)
        try container.encode(total, forKey: .total)
        try container.encodeIfPresent(version, forKey: .version)
        try container.encodeIfPresent(customerID, forKey: .customerID)
        if !attachments.isEmpty { try container.encode(attachments, forKey: .attachments) }
    }
}
