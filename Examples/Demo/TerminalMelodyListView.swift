import Foundation
import Melodies
import Services

/// The melody list screen in a terminal: the same presenter an iOS app uses, driving a table.
@MainActor
final class TerminalMelodyListView: MelodyListView {
    var presenter: MelodyListPresenterImp?
    private let terminal: Terminal
    private let spinner: Spinner
    private let api: URL

    init(terminal: Terminal, api: URL) {
        self.terminal = terminal
        self.api = api
        spinner = Spinner(terminal: terminal)
    }

    func showLoading(_ isLoading: Bool) {
        spinner.show(isLoading, label: "Loading melodies…")
    }

    func showMelodies(melodies: [Melody]) {}

    /// The rows printed last, so that a refresh that changed nothing is not printed twice.
    private var printedRows: [MelodyRow]?
    /// Whether the last rows were the same as those printed before, and so not printed again.
    private var unchanged = false

    /// Watching (`melodies watch`): a list equal to the one on screen is not shown again, and a
    /// new one replaces it in place on a terminal.
    var watching = false

    func showMelodyRows(_ rows: [MelodyRow]) {
        unchanged = rows == printedRows
        printedRows = rows
        if unchanged { return }
        if watching { terminal.clearScreen() }
        terminal.print("Melodies (\(rows.count))", style: .bold)
        let table = Table(
            headers: ["#", "Title", "Artist", "Album", "Time"],
            rows: rows, cells: { ["\($0.id)", $0.title, $0.artist, $0.album, $0.duration] }, fixed: [0, 4])
        for (index, line) in table.lines(fitting: terminal.width).enumerated() {
            terminal.print(line, style: index == 0 ? .dim : .plain)
        }
    }

    func showSourceNotice(_ notice: String?) {
        if unchanged && watching { return }
        if unchanged {
            terminal.print(
                notice
                    ?? SourceNotice(noun: "melodies").freshText(from: api.withoutCredentials, unchanged: true),
                style: .yellow)
            return
        }
        terminal.print()
        terminal.print(
            notice
                ?? SourceNotice(noun: "melodies").freshText(from: api.withoutCredentials, unchanged: false),
            style: .yellow)
    }

    func showLoadError(error: ServiceRequestError) {}

    func showErrorMessage(_ message: String) {
        terminal.printError("demo: \(message)")
    }
}
