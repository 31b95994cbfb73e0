public import Promises
public import Services

/// Where the recipe screen gets its recipes, and where its tests put a double.
public protocol RecipeService: Sendable {
    func recipes(
        policy: CachePolicy, showingCopy: @escaping @Sendable (Fetched<[Recipe]>) -> Void
    ) -> Promise<Fetched<[Recipe]>>
}

/// The API's recipes, with the last answer kept on the device for offline use.
public struct LiveRecipeService: RecipeService {
    let api: APIClient
    let fallback: NetworkFallback<CodableCache<[Recipe]>>

    /// Reads `recipes` from `api`, keeping the copy in `database`.
    public init(api: APIClient, database: Database) {
        self.api = api
        fallback = NetworkFallback(cache: CodableCache(database: database, name: "recipes"))
    }

    /// The recipes as `policy` says: from the API, or the copy and why.
    public func recipes(
        policy: CachePolicy, showingCopy: @escaping @Sendable (Fetched<[Recipe]>) -> Void
    ) -> Promise<Fetched<[Recipe]>> {
        let api = api
        return fallback.fetch(policy: policy, showingCopy: showingCopy) {
            api.get("recipes", as: [Recipe].self)
        }
    }
}
