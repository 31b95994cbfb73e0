import Foundation
import Orders
import Promises
import Services

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// `demo login`, `logout` and `whoami`: the shop's sign-in, kept beside the database in a file only
/// its owner can read (`FileTokenKeeper`); the password is read from standard input, never from the
/// command line, and never echoed when the input is a terminal.
@MainActor
enum SignInScreen {
    /// The credentials for the API `arguments` name, kept beside its database.
    static func credentials(_ arguments: Arguments) -> OAuthCredentials {
        OAuthCredentials(
            tokenURL: arguments.api.appendingPathComponent("oauth/token"),
            keeper: FileTokenKeeper(url: arguments.database.appendingPathExtension("signin")),
            timeout: arguments.apiTimeout)
    }

    static func login(_ user: String, _ arguments: Arguments, _ terminal: Terminal) async -> Int32 {
        guard let password = readPassword(terminal) else {
            terminal.printError("demo: no password on standard input")
            return 1
        }
        do {
            try await credentials(arguments).signIn(user: user, password: password).value
            terminal.print("Signed in as \(Terminal.escaped(user)).")
            return 0
        } catch {
            let why = (error as? AuthenticationError)?.reason ?? Screens.message(for: error)
            terminal.printError("demo: not signed in: \(why)")
            return 1
        }
    }

    static func whoami(_ arguments: Arguments, _ terminal: Terminal) -> Int32 {
        let credentials = credentials(arguments)
        guard let account = credentials.account else {
            terminal.print("Nobody is signed in.")
            return 1
        }
        terminal.print(Terminal.escaped(account))
        return 0
    }

    /// Signs out, keeping the account's orders and waiting changes for its next sign-in, or
    /// erasing them (told first how many changes not sent that drops).
    @MainActor
    static func logout(erase: Bool, _ arguments: Arguments, _ terminal: Terminal) async -> Int32 {
        let credentials = credentials(arguments)
        guard let account = credentials.account else {
            terminal.print("Nobody is signed in.")
            return 0
        }
        let shown = Terminal.escaped(account)
        do {
            guard let app = await App.open(arguments, terminal) else { return 1 }
            let waiting = try await app.orders.unsentChangesByAccount().value[account] ?? 0
            if erase {
                terminal.print(
                    "Erasing \(shown)'s orders, customers and \(changes(waiting)) not sent yet from this device."
                )
                _ = try await app.orders.erase(account: account).value
            }
            try credentials.signOut()
            terminal.print(
                erase
                    ? "Signed out \(shown); nothing of theirs is left here."
                    : "Signed out \(shown); \(changes(waiting)) wait for their next sign-in.")
            return 0
        } catch {
            terminal.printError("demo: \(Screens.message(for: error))")
            return 1
        }
    }

    /// Whether a sync can send anything: signed out with changes of an account waiting, it says
    /// so (exit 1) rather than send nothing quietly.
    static func signedOutMessage(_ app: App) async -> String? {
        guard let credentials = app.credentials, credentials.account == nil,
            let waiting = try? await app.orders.unsentChangesByAccount().value, !waiting.isEmpty
        else { return nil }
        let who = waiting.keys.sorted().map(Terminal.escaped).joined(separator: " or ")
        return "signed out: sign in as \(who) to send \(changes(waiting.values.reduce(0, +)))"
    }

    /// Whose orders this device keeps, when they are not the signed-in account's: "This device
    /// keeps amy's orders: sign in as amy to see them (1 change waits)." They are shown to nobody else.
    static func ownerMessage(_ app: App) async -> String? {
        guard let credentials = app.credentials,
            let owner = try? await app.orders.owner().value,
            owner != credentials.account
        else { return nil }
        let waiting = (try? await app.orders.unsentChangesByAccount().value)?[owner] ?? 0
        let shown = Terminal.escaped(owner)
        let wait = waiting == 0 ? "" : " (\(changes(waiting)) \(waiting == 1 ? "waits" : "wait"))"
        return "This device keeps \(shown)'s orders: sign in as \(shown) to see them\(wait)."
    }

    static func changes(_ count: Int) -> String {
        count == 1 ? "1 change" : "\(count) changes"
    }

    /// One line of standard input, echo turned off while it is read from a terminal.
    private static func readPassword(_ terminal: Terminal) -> String? {
        guard isatty(STDIN_FILENO) == 1 else { return readLine(strippingNewline: true) }
        var saved = termios()
        guard tcgetattr(STDIN_FILENO, &saved) == 0 else { return readLine(strippingNewline: true) }
        var silent = saved
        silent.c_lflag &= ~tcflag_t(ECHO)
        terminal.printError("Password: ")
        tcsetattr(STDIN_FILENO, TCSAFLUSH, &silent)
        defer {
            tcsetattr(STDIN_FILENO, TCSAFLUSH, &saved)
            terminal.printError("")
        }
        return readLine(strippingNewline: true)
    }
}
