import SwiftIfConfig
import SwiftParser
import SwiftSyntax

/// Finds the mutants of one file: walks its syntax tree (swift-syntax) and notes every place a
/// kind of ``Mutant`` applies.
public enum MutantFinder {
    /// The operators replaced, and by what.
    static let replacements: [String: (String, Mutant.Kind)] = [
        "<": ("<=", .comparison), "<=": ("<", .comparison), ">": (">=", .comparison),
        ">=": (">", .comparison),
        "==": ("!=", .comparison), "!=": ("==", .comparison), "&&": ("||", .logical), "||": ("&&", .logical),
        "+": ("-", .arithmetic), "-": ("+", .arithmetic), "..<": ("...", .range), "...": ("..<", .range),
    ]

    /// Every mutant of `source` in the code `platform` compiles (the active clause of each `#if`).
    ///
    /// - Parameters:
    ///   - source: The file's text.
    ///   - file: Its path relative to the package's root.
    ///   - module: The module it belongs to.
    ///   - platform: The platform the code is built for; this machine's by default.
    /// - Returns: The mutants, in the order of the file.
    public static func mutants(
        in source: String, file: String, module: String, platform: TargetPlatform = .host
    ) -> [Mutant] {
        let tree = Parser.parse(source: source)
        let finder = Finder(
            file: file, module: module, converter: SourceLocationConverter(fileName: file, tree: tree),
            platform: platform)
        finder.walk(tree)
        return finder.found.sorted { $0.offset < $1.offset }
    }

    private final class Finder: ActiveSyntaxVisitor {
        let file: String
        let module: String
        let converter: SourceLocationConverter
        var found: [Mutant] = []

        init(file: String, module: String, converter: SourceLocationConverter, platform: TargetPlatform) {
            self.file = file
            self.module = module
            self.converter = converter
            super.init(viewMode: .sourceAccurate, configuration: platform.configuration)
        }

        /// Notes a mutant replacing `node`'s text (its trivia kept) by `replacement`.
        func note(
            _ node: some SyntaxProtocol, by replacement: String, _ kind: Mutant.Kind, _ description: String
        ) {
            let start = node.positionAfterSkippingLeadingTrivia
            found.append(
                Mutant(
                    file: file, module: module, line: converter.location(for: start).line,
                    offset: start.utf8Offset, length: node.trimmedLength.utf8Length, replacement: replacement,
                    kind: kind, description: description))
        }

        override func visit(_ node: BinaryOperatorExprSyntax) -> SyntaxVisitorContinueKind {
            let text = node.operator.text
            if let (replacement, kind) = MutantFinder.replacements[text], !Self.joinsStrings(node) {
                note(node.operator, by: replacement, kind, "`\(text)` -> `\(replacement)`")
            }
            return .visitChildren
        }

        override func visit(_ node: PrefixOperatorExprSyntax) -> SyntaxVisitorContinueKind {
            if node.operator.text == "!" {
                note(node, by: node.expression.trimmedDescription, .negation, "`!` removed")
            }
            return .visitChildren
        }

        override func visit(_ node: ReturnStmtSyntax) -> SyntaxVisitorContinueKind {
            if let literal = node.expression?.as(BooleanLiteralExprSyntax.self) {
                let flipped = literal.literal.text == "true" ? "false" : "true"
                note(
                    literal, by: flipped, .constant, "`return \(literal.literal.text)` -> `return \(flipped)`"
                )
            }
            return .visitChildren
        }

        override func visit(_ node: CodeBlockItemSyntax) -> SyntaxVisitorContinueKind {
            if case .expr(let expression) = node.item, Self.isCall(expression), !Self.isImplicitReturn(node) {
                note(node, by: "", .removedCall, "call removed: `\(Self.short(expression))`")
            }
            if case .stmt(let statement) = node.item, let guardStatement = statement.as(GuardStmtSyntax.self),
                !Self.binds(guardStatement.conditions)
            {
                note(
                    node, by: "", .removedGuard,
                    "guard removed: `guard \(Self.short(guardStatement.conditions))`")
            }
            return .visitChildren
        }

        override func visit(_ node: IfExprSyntax) -> SyntaxVisitorContinueKind {
            if node.elseBody == nil, !node.body.statements.isEmpty {
                note(
                    node.body, by: "{}", .removedIfBody,
                    "if body removed: `if \(Self.short(node.conditions))`")
            }
            return .visitChildren
        }

        override func visit(_ node: FunctionCallExprSyntax) -> SyntaxVisitorContinueKind {
            let arguments = Array(node.arguments)
            if arguments.count == 2, arguments.allSatisfy({ $0.label == nil }),
                arguments[0].expression.trimmedDescription != arguments[1].expression.trimmedDescription,
                arguments[0].expression.kind == arguments[1].expression.kind
            {
                let (first, second) = (arguments[0].expression, arguments[1].expression)
                let start = first.positionAfterSkippingLeadingTrivia
                let end = second.endPositionBeforeTrailingTrivia
                found.append(
                    Mutant(
                        file: file, module: module, line: converter.location(for: start).line,
                        offset: start.utf8Offset, length: end.utf8Offset - start.utf8Offset,
                        replacement: second.trimmedDescription + ", " + first.trimmedDescription,
                        kind: .swappedArguments,
                        description: "arguments swapped: `\(Self.short(first)), \(Self.short(second))`"))
            }
            return .visitChildren
        }

        /// A call (or `try` / `await` of one) standing alone as a statement: its result unused.
        static func isCall(_ expression: ExprSyntax) -> Bool {
            if let call = expression.as(FunctionCallExprSyntax.self) { return call.trailingClosure == nil }
            if let tried = expression.as(TryExprSyntax.self) { return isCall(tried.expression) }
            if let awaited = expression.as(AwaitExprSyntax.self) { return isCall(awaited.expression) }
            return false
        }

        /// Whether `item` is the only statement of a getter or a function that returns something:
        /// its value is what they return, so removing it does not compile.
        static func isImplicitReturn(_ item: CodeBlockItemSyntax) -> Bool {
            guard let list = item.parent?.as(CodeBlockItemListSyntax.self), list.count == 1 else {
                return false
            }
            // A closure's only call is left in: most closures (`done`, `catch`, `ensure`) return
            // nothing, and their calls are the mutants that matter most.
            if list.parent?.is(AccessorBlockSyntax.self) == true { return true }
            if let function = list.parent?.parent?.as(FunctionDeclSyntax.self) {
                return function.signature.returnClause != nil
            }
            return list.parent?.parent?.as(AccessorDeclSyntax.self)?.accessorSpecifier.text == "get"
        }

        /// Whether a guard's conditions bind names (`guard let`, `guard case`): the code after it
        /// uses them, so removing it does not compile.
        static func binds(_ conditions: ConditionElementListSyntax) -> Bool {
            conditions.contains {
                $0.condition.is(OptionalBindingConditionSyntax.self)
                    || $0.condition.is(MatchingPatternConditionSyntax.self)
            }
        }

        /// Whether `+` or `-` stands between strings (`path + "/x"`), where the other operator
        /// does not exist.
        static func joinsStrings(_ node: BinaryOperatorExprSyntax) -> Bool {
            // Unfolded, as the parser leaves it: the operands are the operator's neighbours in
            // its sequence.
            guard ["+", "-"].contains(node.operator.text),
                let elements = node.parent?.as(ExprListSyntax.self),
                let index = elements.firstIndex(where: { $0.id == node.id })
            else { return false }
            let after = elements.index(after: index)
            let neighbours = [
                index == elements.startIndex ? nil : elements[elements.index(before: index)],
                after == elements.endIndex ? nil : elements[after],
            ]
            return neighbours.contains { $0?.is(StringLiteralExprSyntax.self) == true }
        }

        /// The first line of `node`, at most 60 characters.
        static func short(_ node: some SyntaxProtocol) -> String {
            let line = node.trimmedDescription.split(separator: "\n").first.map(String.init) ?? ""
            return line.count > 60 ? String(line.prefix(57)) + "..." : line
        }
    }
}
