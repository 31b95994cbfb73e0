/// One small change to one source file, of a kind that finds real gaps in tests: the code with it
/// should fail some test.
public struct Mutant: Sendable, Hashable {
    /// The kinds of change.
    public enum Kind: String, Sendable, CaseIterable {
        /// A comparison or boundary operator replaced (`<` by `<=`, `==` by `!=`).
        case comparison
        /// `&&` and `||` swapped.
        case logical
        /// `+` and `-` swapped.
        case arithmetic
        /// A range off by one (`..<` and `...` swapped).
        case range
        /// A negation removed (`!done` becomes `done`).
        case negation
        /// `return true` and `return false` swapped.
        case constant
        /// A call whose result is not used removed.
        case removedCall
        /// The body of an `if` without `else` emptied.
        case removedIfBody
        /// A `guard` removed.
        case removedGuard
        /// The two unlabelled arguments of a call swapped.
        case swappedArguments
    }

    /// The file, relative to the package's root, such as `Sources/OfflineKit/Outbox/Outbox.swift`.
    public let file: String
    /// The module the file belongs to: the folder under `Sources`.
    public let module: String
    /// The line the change starts on, from 1.
    public let line: Int
    /// Where the bytes replaced start, in the file's UTF-8.
    public let offset: Int
    /// How many bytes are replaced.
    public let length: Int
    /// What replaces them.
    public let replacement: String
    /// The kind of change.
    public let kind: Kind
    /// The change as a reader sees it: `` `<` -> `<=` ``.
    public let description: String

    /// The file's text with this change made.
    ///
    /// - Parameter source: The file's text, as the mutant was found in it.
    /// - Returns: The changed text.
    public func applied(to source: String) -> String {
        var bytes = Array(source.utf8)
        bytes.replaceSubrange(offset..<(offset + length), with: Array(replacement.utf8))
        return String(decoding: bytes, as: UTF8.self)
    }
}
