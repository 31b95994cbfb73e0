import Foundation
import Orders

/// The customer of `demo customers create`, and the order options the other commands refuse.
extension Arguments {
    /// Refuses the order options in `values`, but those in `allowed`, for a command that takes none.
    static func refuseOrderParts(_ values: [String: [String]], allowing allowed: Set<String> = [])
        throws
    {
        let orderParts = Option.all.filter(\.isOrderPart).map(\.name)
        if let option = orderParts.first(where: { values[$0] != nil && !allowed.contains($0) }) {
            throw UsageError(message: "\(option) only goes with 'orders create' or 'orders update'")
        }
    }

    /// The customer of `customers create`: `--name` and `--email`, each given and not blank.
    static func customer(_ values: [String: [String]]) throws -> Customer {
        try refuseOrderParts(values, allowing: ["--email"])
        let given = { (option: String) in
            values[option]?.last.map { $0.trimmingCharacters(in: .whitespaces) }.flatMap {
                $0.isEmpty ? nil : $0
            }
        }
        guard let name = given("--name"), let email = given("--email") else {
            throw UsageError(message: "say who: demo customers create --name NAME --email EMAIL")
        }
        return Customer(name: name, email: email)
    }
}
