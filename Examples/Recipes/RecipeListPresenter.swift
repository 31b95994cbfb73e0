public import Promises
public import Services

/// Fetches recipes and tells its view what to show: one line per recipe, and where they came from.
@MainActor
public final class RecipeListPresenter {
    /// The screen, held weakly: the screen owns its presenter.
    public weak var view: (any RecipeListView)?
    let service: any RecipeService
    let policy: CachePolicy
    let notice: SourceNotice

    /// Makes the presenter of `view`, reading `service` as `policy` says.
    public init(
        service: any RecipeService, view: (any RecipeListView)?, policy: CachePolicy = .networkFirst,
        notice: SourceNotice = SourceNotice(noun: "recipes")
    ) {
        self.service = service
        self.view = view
        self.policy = policy
        self.notice = notice
    }

    /// Shows the recipes, or why they could not be loaded; settles after the view was told.
    public func fetchRecipes() -> Promise<[Recipe]> {
        ListLoad<[Recipe]>(
            loading: { self.view?.showLoading($0) },
            show: { fetched, refreshing in
                let rows = fetched.value.map { "\($0.name) (\($0.minutes) min)" }
                self.view?.showRecipes(rows, notice: self.notice.text(for: fetched, refreshing: refreshing))
            },
            fail: { self.view?.showError($0.userMessage) }
        ).run { showingCopy in self.service.recipes(policy: self.policy, showingCopy: showingCopy) }
    }
}
