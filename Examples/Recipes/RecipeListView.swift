/// The recipe list screen, as its presenter sees it: it shows what it is told.
@MainActor
public protocol RecipeListView: AnyObject {
    func showLoading(_ isLoading: Bool)
    func showRecipes(_ rows: [String], notice: String?)
    func showError(_ message: String)
}
