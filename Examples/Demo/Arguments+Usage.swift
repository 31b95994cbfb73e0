import Foundation

/// The help text, made from the option table and the verbs, each written once.
extension Arguments {
    /// The help text, made from ``Option/all`` and ``orderVerbs``.
    static var usage: String {
        let verbNames = orderVerbs.map { $0.takesID ? "\($0.verb) ID" : $0.verb }
        let verbs = wrapped(
            verbNames.enumerated().map {
                $0.offset == verbNames.count - 1 ? $0.element + "]" : $0.element + " |"
            }
                + ["[options]"],
            width: 90, indent: 20)
        let orderParts = Option.all.compactMap { option -> String? in
            guard case .order(let required, let repeats, _, _) = option.use else { return nil }
            let part = "\(option.name) \(option.value)" + (repeats ? " [\(option.name) ...]" : "")
            return required ? part : "[\(part)]"
        }
        let synopsis = wrapped(orderParts + ["[options]"], width: 84, indent: 12)
        let options = Option.all.filter { !$0.isOrderPart }.map { option in
            let name = option.name + " " + option.value
            // A name too long for the column has its help on the next line.
            let head =
                name.count < 17
                ? "  " + name.padding(toLength: 17, withPad: " ", startingAt: 0)
                : "  " + name + "\n" + String(repeating: " ", count: 19)
            return head
                + option.help.replacingOccurrences(of: "\n", with: "\n" + String(repeating: " ", count: 19))
        }
        return """
            usage: demo melodies [watch] [options]
                   demo orders [\(verbs)
                   demo orders create \(synopsis)
                   demo orders attach ID FILE | orders attachment ID NAME --to PATH
                   demo customers [list] | customers create --name NAME --email EMAIL
                   demo customers retry ID | customers discard ID
                   demo sync [--hand-off] [options] | transfers run
                   demo login --user NAME | logout [--erase] | whoami
                   demo status [--json]
                   demo export-sample-api FOLDER

            Shows melodies or orders from the API, or from the local database when the API cannot be
            reached. An order created, changed or deleted while the API cannot be reached is saved in
            the local database and sent when it can: at the next online listing, or with 'orders sync'
            (exit 1 while a change still waits or is held). 'orders retry ID' sends a refused or stuck
            change again now, 'orders discard ID' drops it. 'orders watch' (and 'melodies watch') stays
            on, shows the newest 100 orders again at each change saved, here or by another demo, and
            sends waiting changes by itself when the API is back; another device's changes show as
            they happen where the API pushes them (GET /events), every --refresh seconds where it
            does not; Ctrl-C or a closed input ends it.
            'orders update ID' changes the parts of an order its options name (those of 'orders
            create'). A change the shop's copy moved on from meanwhile is merged when the two changed
            different fields, else a conflict: 'orders show ID' puts both side by side, 'orders
            resolve ID --keep-mine | --keep-theirs' settles it. 'customers create' adds a customer,
            offline too; an order names one with --customer ID (an ID 'customers' shows, sent or not)
            and is sent after it, naming the shop's ID. 'sync' sends every change that waits,
            customers before the orders that name them. 'sync --hand-off' sends nothing: it hands the
            changes that may go now to the transfer service (a background session on a phone), which
            'transfers run' stands in for here; the next 'sync' or 'orders' records its answers, once.
            'orders --customer ID' lists the orders of one customer kept here, by the ID this device
            gave it or the shop's, before the sync and after; '--count' says how many instead.
            'customers retry ID' and 'customers discard ID' do for a customer what they do for an order;
            the orders that named a discarded customer are held until each is discarded or changed.
            'orders attach ID FILE' keeps a copy of FILE with the order, offline too, and 'sync' uploads
            it (resumably) before the order's change, which then names the shop's upload;
            'orders attachment ID NAME --to PATH' writes that file to PATH, fetched once if need be.
            'export-sample-api FOLDER' writes a sample API to serve with 'python3 -m http.server'.
            'status' shows what waits to be sent, per collection, and why (--json for support).
            'login' signs in to a shop that wants it (the password is read from standard input, not
            echoed), and every command then uses that account; 'logout' keeps its orders and changes for
            its next sign-in, or with --erase removes them from this device.

            options:
            \(options.joined(separator: "\n"))

            exit codes: 0 done, 1 failed (the message says why), 2 wrong command line (bad syntax, or
            a value an order cannot take)
            """
    }

    /// `words` joined with spaces, broken before `width` columns, continued lines indented.
    private static func wrapped(_ words: [String], width: Int, indent: Int) -> String {
        var lines = [""]
        for word in words {
            let last = lines[lines.count - 1]
            if !last.isEmpty && last.count + 1 + word.count > width - indent {
                lines.append(word)
            } else {
                lines[lines.count - 1] = last.isEmpty ? word : last + " " + word
            }
        }
        return lines.joined(separator: "\n" + String(repeating: " ", count: indent))
    }
}
