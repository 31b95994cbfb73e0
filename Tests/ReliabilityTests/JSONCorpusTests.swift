import Foundation
import MelodiesTesting
import OrdersTesting
import Testing

@testable import Services

/// Malformed and hostile JSON for melodies and orders: decoded without a crash, each to a clear
/// error that names the type; generated variations of valid payloads too.
@Suite("JSON corpus")
struct JSONCorpusTests {
    static let validMelody =
        #"{"id": 1, "title": "River", "artist": "Joni Mitchell", "album": "Blue", "duration": 244}"#

    /// Payloads that must be refused, for `[Melody]`.
    static let hostileMelodies: [String] = [
        "", " ", "null", "true", "0", "\"melodies\"", "{}", "[", "]", "[{]", "[{}]", "[null]", "[[]]",
        "[1, 2, 3]",
        #"[{"id": "1", "title": "River", "artist": "J", "album": "B", "duration": 244}]"#,
        #"[{"id": 1.5, "title": "River", "artist": "J", "album": "B", "duration": 244}]"#,
        #"[{"id": 1, "title": null, "artist": "J", "album": "B", "duration": 244}]"#,
        #"[{"id": 1, "title": 7, "artist": "J", "album": "B", "duration": 244}]"#,
        #"[{"id": 1, "artist": "J", "album": "B", "duration": 244}]"#,
        #"[{"id": 1, "title": "River", "artist": "J", "album": "B"}]"#,
        #"[{"id": 1, "title": "River", "artist": "J", "album": "B", "duration": "4:04"}]"#,
        #"[{"id": 99999999999999999999999, "title": "R", "artist": "J", "album": "B", "duration": 1}]"#,
        #"[{"id": 1e400, "title": "R", "artist": "J", "album": "B", "duration": 1}]"#,
        #"[{"id": NaN, "title": "R", "artist": "J", "album": "B", "duration": 1}]"#,
        #"[{"id": Infinity, "title": "R", "artist": "J", "album": "B", "duration": 1}]"#,
        #"[{"id": 0x10, "title": "R", "artist": "J", "album": "B", "duration": 1}]"#,
        #"[{'id': 1, 'title': 'R', 'artist': 'J', 'album': 'B', 'duration': 1}]"#,
        #"[{id: 1, title: "R", artist: "J", album: "B", duration: 1}]"#,
        #"[{"id": 1, "title": "R\u0", "artist": "J", "album": "B", "duration": 1}]"#,
        #"[{"id": 1, "title": "R\x41", "artist": "J", "album": "B", "duration": 1}]"#,
        #"[{"id": 1, "title": "unterminated, "artist": "J", "album": "B", "duration": 1}]"#,
        #"{"melodies": []}"#,
        #"[{"id": 1, "title": "R", "artist": "J", "album": "B", "duration": 1}] trailing"#,
        #"[{"id": 1, "title": "R", "artist": "J", "album": "B", "duration": 1} {"id": 2}]"#,
        String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000),
        "[" + String(repeating: "{\"a\":", count: 5_000) + "1" + String(repeating: "}", count: 5_000) + "]",
        #"[{"id": true, "title": "R", "artist": "J", "album": "B", "duration": 1}]"#,
        #"[{"id": [], "title": "R", "artist": "J", "album": "B", "duration": 1}]"#,
        #"[{"id": {}, "title": "R", "artist": "J", "album": "B", "duration": 1}]"#,
        "[\"\u{0}\"]",
        "/* comment */ []x",
    ]

    /// Payloads that must be refused, for `Order`.
    static let hostileOrders: [String] = [
        "{}", "[]", "null",
        #"{"date": "2026-11-21T10:00:00Z"}"#,
        #"{"date": "yesterday", "email": "a@b.c", "firstName": "A", "lastName": "B", "phone": "", "billingAddress": {"street1": "", "street2": "", "city": "", "state": "", "zip": ""}, "shipmentAddress": {"street1": "", "street2": "", "city": "", "state": "", "zip": ""}, "paymentMethod": {"creditCardNumber": "", "expirationDate": "2030-01-01T00:00:00Z", "cvv": ""}, "shipmentMethod": {"speed": 0}, "items": [], "total": 1}"#,
        #"{"date": "2026-11-21T10:00:00Z", "email": "a@b.c", "firstName": "A", "lastName": "B", "phone": "", "billingAddress": {"street1": "", "street2": "", "city": "", "state": "", "zip": ""}, "shipmentAddress": {"street1": "", "street2": "", "city": "", "state": "", "zip": ""}, "paymentMethod": {"creditCardNumber": "", "expirationDate": "2030-01-01T00:00:00Z", "cvv": ""}, "shipmentMethod": {"speed": 9}, "items": [], "total": 1}"#,
        #"{"date": "2026-11-21T10:00:00Z", "email": "a@b.c", "firstName": "A", "lastName": "B", "phone": "", "billingAddress": {"street1": "", "street2": "", "city": "", "state": "", "zip": ""}, "shipmentAddress": {"street1": "", "street2": "", "city": "", "state": "", "zip": ""}, "paymentMethod": {"creditCardNumber": "", "expirationDate": "2030-01-01T00:00:00Z", "cvv": ""}, "shipmentMethod": {"speed": 0}, "items": [{"name": "x", "quantity": "two", "unitPrice": 1}], "total": 1}"#,
        #"{"date": "2026-11-21T10:00:00Z", "email": "a@b.c", "firstName": "A", "lastName": "B", "phone": "", "billingAddress": null, "shipmentAddress": {"street1": "", "street2": "", "city": "", "state": "", "zip": ""}, "paymentMethod": {"creditCardNumber": "", "expirationDate": "2030-01-01T00:00:00Z", "cvv": ""}, "shipmentMethod": {"speed": 0}, "items": [], "total": 1}"#,
        #"{"date": "2026-11-21T10:00:00Z", "email": "a@b.c", "firstName": "A", "lastName": "B", "phone": "", "billingAddress": {"street1": "", "street2": "", "city": "", "state": "", "zip": ""}, "shipmentAddress": {"street1": "", "street2": "", "city": "", "state": "", "zip": ""}, "paymentMethod": {"creditCardNumber": "", "expirationDate": "2030-01-01T00:00:00Z", "cvv": ""}, "shipmentMethod": {"speed": 0}, "items": [], "total": "a lot"}"#,
    ]

    static func decode<Value: Decodable>(_ type: Value.Type, _ data: Data) -> Result<Value, any Error> {
        Result { try APIClient.decode(type, from: data) }
    }

    /// Expects `data` to be refused with a decoding error that names `type` and says what is wrong.
    static func expectRefused<Value: Decodable>(
        _ type: Value.Type, _ data: Data, sourceLocation: SourceLocation = #_sourceLocation
    ) {
        switch decode(type, data) {
        case .success(let value):
            Issue.record("decoded \(value) from \(data.count) bytes", sourceLocation: sourceLocation)
        case .failure(let error):
            guard case .decodingFailed(let name, let reason) = ServiceRequestError(error) else {
                Issue.record("expected decodingFailed, got \(error)", sourceLocation: sourceLocation)
                return
            }
            #expect(name == "\(type)", sourceLocation: sourceLocation)
            #expect(!reason.isEmpty, sourceLocation: sourceLocation)
        }
    }

    @Test("malformed or hostile melodies payloads are refused", arguments: hostileMelodies.indices)
    func hostileMelody(_ index: Int) {
        Self.expectRefused([Melody].self, Data(Self.hostileMelodies[index].utf8))
    }

    @Test("malformed or hostile order payloads are refused", arguments: hostileOrders.indices)
    func hostileOrder(_ index: Int) {
        Self.expectRefused(Order.self, Data(Self.hostileOrders[index].utf8))
    }

    @Test("what Foundation's decoder tolerates decodes to the obvious value: a trailing comma, an underflow")
    func tolerated() throws {
        let trailingComma = #"[{"id": 1, "title": "R", "artist": "J", "album": "B", "duration": 1},]"#
        let underflow = #"[{"id": -1e-400, "title": "R", "artist": "J", "album": "B", "duration": 1}]"#
        #expect(try Self.decode([Melody].self, Data(trailingComma.utf8)).get().map(\.id) == [1])
        #expect(try Self.decode([Melody].self, Data(underflow.utf8)).get().map(\.id) == [0])
    }

    @Test("invalid UTF-8 is refused")
    func invalidUTF8() {
        for bytes: [UInt8] in [
            [0xFF, 0xFE], [0x5B, 0x22, 0xC3, 0x28, 0x22, 0x5D], [0x5B, 0xED, 0xA0, 0x80, 0x5D], [0xC0, 0xAF],
        ] {
            Self.expectRefused([Melody].self, Data(bytes))
        }
    }

    @Test("duplicate keys decode to one value or are refused, never crash")
    func duplicateKeys() {
        let payload = #"[{"id": 1, "id": 2, "title": "R", "artist": "J", "album": "B", "duration": 1}]"#
        switch Self.decode([Melody].self, Data(payload.utf8)) {
        case .success(let melodies):
            #expect(melodies.count == 1)
            #expect([1, 2].contains(melodies.first?.id ?? 0))
        case .failure(let error):
            #expect(ServiceRequestError(error).isDecodingFailure)
        }
    }

    @Test("every truncation of a valid payload is refused")
    func truncations() throws {
        let valid = Data(("[" + Self.validMelody + "," + Self.validMelody + "]").utf8)
        #expect(try Self.decode([Melody].self, valid).get().count == 2)
        for length in 0..<valid.count - 1 {
            Self.expectRefused([Melody].self, valid.prefix(length))
        }
    }

    @Test("a valid payload with one field removed, nulled or retyped is refused")
    func fieldVariations() throws {
        let fields = ["id", "title", "artist", "album", "duration"]
        let object = try #require(
            try JSONSerialization.jsonObject(with: Data(Self.validMelody.utf8)) as? [String: Any])
        for field in fields {
            for replacement: Any? in [nil, NSNull(), "text", 1.5, [1], ["a": 1], true] {
                if let text = replacement as? String, field != "id" && field != "duration", text == "text" {
                    continue
                }
                var changed = object
                changed[field] = replacement
                if replacement == nil { changed.removeValue(forKey: field) }
                let data = try JSONSerialization.data(withJSONObject: [changed])
                Self.expectRefused([Melody].self, data)
            }
        }
    }

    @Test("random bytes never crash the decoder, and are each refused with a decoding error")
    func randomBytes() {
        var generator = SeededGenerator(seed: 2026)
        for _ in 0..<300 {
            let bytes = (0..<Int(generator.next() % 200)).map { _ in
                UInt8(truncatingIfNeeded: generator.next())
            }
            Self.expectRefused([Melody].self, Data(bytes))
            Self.expectRefused(Order.self, Data(bytes))
        }
    }
}

extension ServiceRequestError {
    var isDecodingFailure: Bool {
        if case .decodingFailed = self { return true }
        return false
    }
}
