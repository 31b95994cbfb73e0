public import Foundation

/// The JSON conventions of every request and answer: ISO 8601 dates that keep their fractional
/// seconds (`ISO8601Timestamp`), keys sorted when encoding.
extension APIClient {
    /// Decodes a body the way every answer is decoded: JSON, dates in ISO 8601.
    ///
    /// - Parameters:
    ///   - type: What the body holds.
    ///   - data: The body.
    /// - Returns: The decoded value.
    /// - Throws: ``APIError/decoding(type:reason:)`` naming the type and what was wrong.
    public static func decode<Response: Decodable>(_ type: Response.Type, from data: Data) throws -> Response
    {
        try decode(type, from: data, with: JSONDecoder.api)
    }

    /// Decodes `data` with `decoder`, naming the type and what was wrong when it does not decode.
    static func decode<Response: Decodable>(
        _ type: Response.Type, from data: Data, with decoder: JSONDecoder
    ) throws -> Response {
        do {
            return try decoder.decode(type, from: data)
        } catch let error as DecodingError {
            throw APIError.decoding(
                type: "\(type)", reason: data.isEmpty ? "the body is empty" : error.reason)
        }
    }

    /// The decoder `APIClient` uses unless it is given another: ISO 8601 dates, with or without
    /// fractional seconds, in UTC or with an offset.
    public static let standardDecoder: @Sendable () -> JSONDecoder = { JSONDecoder.api }

    /// The encoder `APIClient` uses unless it is given another: ISO 8601 dates in UTC with the
    /// fractional seconds the date holds (none for whole seconds), so a value read back is equal
    /// to itself; keys sorted so that the same value always gives the same bytes.
    public static let standardEncoder: @Sendable () -> JSONEncoder = { JSONEncoder.api }

    /// Encodes a body the way every request body is encoded: JSON, dates in ISO 8601, keys sorted
    /// so that the same value always gives the same bytes.
    ///
    /// - Parameter body: What to send.
    /// - Returns: The JSON bytes.
    /// - Throws: `EncodingError` when the value cannot be encoded.
    public static func encode(_ body: some Encodable) throws -> Data {
        try JSONEncoder.api.encode(body)
    }
}

extension JSONDecoder {
    /// The decoder every API call uses: ISO 8601 dates.
    static var api: JSONDecoder {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .custom { decoder in
            let container = try decoder.singleValueContainer()
            let text = try container.decode(String.self)
            guard let date = ISO8601Timestamp.date(from: text) else {
                throw DecodingError.dataCorruptedError(
                    in: container, debugDescription: "\"\(text)\" is not an ISO 8601 date and time")
            }
            return date
        }
        return decoder
    }
}

extension JSONEncoder {
    /// The encoder every API call uses: ISO 8601 dates, keys sorted so bodies are stable.
    static var api: JSONEncoder {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .custom { date, encoder in
            var container = encoder.singleValueContainer()
            try container.encode(ISO8601Timestamp.string(from: date))
        }
        encoder.outputFormatting = [.sortedKeys]
        return encoder
    }
}
