import Foundation

/// The package's documents, read from the checkout the tests were built from: the README, the
/// contributors' guide, the benchmarks' log and every DocC article.
enum Documents {
    /// The package's root folder.
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../..").standardized

    /// A file's text, by path from the root.
    static func text(_ path: String) throws -> String {
        try String(contentsOf: root.appendingPathComponent(path), encoding: .utf8)
    }

    /// Whether a file or folder exists, by path from the root.
    static func exists(_ path: String) -> Bool {
        FileManager.default.fileExists(atPath: root.appendingPathComponent(path).path)
    }

    /// Every Swift file under `folders`, by path from the root.
    static func swiftFiles(under folders: [String]) -> [String] {
        folders.flatMap { files(under: $0) { $0.hasSuffix(".swift") } }
    }

    /// The documents a reader is sent to: the README, CONTRIBUTING.md, the demo's, the benchmarks'
    /// and the tools' READMEs, and each catalog's articles.
    static var all: [String] {
        [
            "README.md", "CONTRIBUTING.md", "Examples/Demo/README.md", "Benchmarks/README.md",
            "Tools/README.md",
        ]
        .filter(exists)
            + files(under: "Sources") { $0.contains(".docc/") && $0.hasSuffix(".md") }.sorted()
    }

    /// The files under `folder` whose path within it `matches`, by path from the root.
    private static func files(under folder: String, _ matches: (String) -> Bool) -> [String] {
        let enumerator = FileManager.default.enumerator(atPath: root.appendingPathComponent(folder).path)
        return (enumerator?.allObjects as? [String] ?? []).filter(matches).map { folder + "/" + $0 }
    }

    /// The `code spans` of `text`: what a document cites by name.
    static func codeSpans(in text: String) -> [String] {
        var spans: [String] = []
        var inFence = false
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix("```") {
                inFence.toggle()
                continue
            }
            guard !inFence else { continue }
            let parts = line.split(separator: "`", omittingEmptySubsequences: false)
            spans += stride(from: 1, to: parts.count - 1, by: 2).map { String(parts[$0]) }
        }
        return spans
    }
}
