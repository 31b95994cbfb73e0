import Orders

/// The list printed a page at a time (`orders --offline`): each page's rows are printed as they
/// come and dropped, so a list of any length never sits in memory whole.
extension TerminalOrdersView {
    func displayOrdersPage(viewModel: ListOrders.FetchOrdersPage.ViewModel) {
        let table = Self.table(viewModel.displayedOrders, sample: sample)
        let first = pageWidths == nil
        if first {
            terminal.print("Orders (\(viewModel.count ?? viewModel.displayedOrders.count))", style: .bold)
        }
        let widths = pageWidths ?? table.columnWidths(fitting: terminal.width)
        pageWidths = widths
        for (index, line) in table.lines(widths: widths, header: first).enumerated() {
            terminal.print(line, style: first && index == 0 ? .dim : .plain)
        }
        pagesSaid += Self.said(viewModel.displayedOrders)
        guard viewModel.next == nil else { return }
        printFooter(
            said: pagesSaid + (sample ? [Self.sampleNotice] : []), notice: viewModel.notice,
            syncNotice: viewModel.syncNotice)
        pageWidths = nil
        pagesSaid = []
    }
}
