import Foundation

extension DecodingError {
    /// The type that was being decoded, as far as the error tells.
    var decodedType: Any.Type {
        switch self {
        case .typeMismatch(let type, _), .valueNotFound(let type, _): type
        case .keyNotFound, .dataCorrupted: Any.self
        @unknown default: Any.self
        }
    }

    /// What was wrong, with the coding path where it was found.
    var reason: String {
        let context: Context? =
            switch self {
            case .typeMismatch(_, let context), .valueNotFound(_, let context),
                .keyNotFound(_, let context), .dataCorrupted(let context):
                context
            @unknown default:
                nil
            }
        guard let context else { return "\(self)" }
        let path = context.codingPath.map(\.stringValue).joined(separator: ".")
        return path.isEmpty ? context.debugDescription : "\(path): \(context.debugDescription)"
    }
}
