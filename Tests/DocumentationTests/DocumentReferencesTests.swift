import Foundation
import Testing

/// What the documents cite exists: every path, every test (`Suite.method`), every type. A renamed
/// file, test or type fails here instead of leaving a reader at a name that is gone.
@Suite("Documents cite what exists")
struct DocumentReferencesTests {
    /// Names the documents cite that are not the package's: the platform's, the standard
    /// library's, and PromiseKit's where the documents compare with it.
    static let elsewhere: Set<String> = [
        "Codable", "Int", "Regex", "Process", "Package", "NWPathMonitor", "SQLite3", "ETag", "GET", "PUT",
        "POST", "PATCH", "HEAD", "Range", "Location", "Attachments", "BGTaskScheduler",
        "NSExtensionHostWillResignActive", "NSExtensionHostDidBecomeActive",
        "ESRCH", "ECHILD", "EINTR", "ENOLCK", "WNOWAIT", "SUBPROCESSES", "PackageFrameworks", "Sendable",
        "CHANGELOG", "Security", "Network", "Combine", "DatabaseQueue",
        "Added", "Changed", "Fixed",
        "Removed", "PMKCancel",
        "PMKError", "PMKFinalizer", "Resolver", "CatchMixin", "FileManager", "ProcessInfo", "Future",
        "Atomic",
        "Date", "Mutex", "JSONSerialization", "NSLock", "URLSession", "DELETE", "UIBackgroundModes",
        "BGTaskSchedulerPermittedIdentifiers",
    ]

    /// Every type, protocol and alias the package declares, and the files that declare each.
    static let declared: [String: [String]] = {
        if #available(macOS 13, iOS 16, tvOS 16, watchOS 9, *) { return declarations() } else { return [:] }
    }()

    @available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)  // Regex
    static func declarations() -> [String: [String]] {
        var found: [String: [String]] = [:]
        let pattern = /(?:struct|class|enum|protocol|typealias|actor|extension)\s+([A-Z][A-Za-z0-9_]*)/
        for path in Documents.swiftFiles(under: [
            "Sources", "Examples", "Tests", "Benchmarks/Benchmarks", "Tools/Sources",
        ]) {
            guard let text = try? Documents.text(path) else { continue }
            for match in text.matches(of: pattern) { found[String(match.1), default: []].append(path) }
            // The folders on the way count too: modules (`Services`), layers (`Offline`).
            for folder in path.split(separator: "/").dropLast() {
                found[String(folder), default: []].append(path)
            }
        }
        // C targets have no Swift file to find them by.
        let targets =
            (try? FileManager.default.contentsOfDirectory(
                atPath: Documents.root.appendingPathComponent("Sources").path)) ?? []
        for target in targets { found[target, default: []].append("Sources/" + target) }
        return found
    }

    @Test("every file or folder a document names exists", arguments: Documents.all)
    @available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)  // Regex
    func pathsExist(document: String) throws {
        // Given
        let text = try Documents.text(document)

        // When
        let cited = Documents.codeSpans(in: text).compactMap { span -> String? in
            let path = String(span.split(separator: " ").first ?? "")
            let roots = ["Sources/", "Tests/", "Examples/", "Benchmarks/", "Tools/", ".ci/", ".github/"]
            guard roots.contains(where: path.hasPrefix), !path.contains("<"), !path.contains("*") else {
                return nil
            }
            return path.split(separator: ":").first.map(String.init)
        }
        // A link is relative to the document's folder, as Markdown reads it.
        let folder = URL(fileURLWithPath: document).deletingLastPathComponent().relativePath
        let linked = text.matches(of: /\]\(([^)#:]+)\)/).map { match in
            folder == "." ? String(match.1) : "\(folder)/\(match.1)"
        }

        // Then
        let missing = (cited + linked).filter { !Documents.exists($0) }
        #expect(missing.isEmpty, "\(document) names what does not exist: \(missing)")
    }

    @Test("every test a document names (Suite.method) exists", arguments: Documents.all)
    @available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)  // Regex
    func testsExist(document: String) throws {
        // Given
        let text = try Documents.text(document)

        // When
        var suite: String?
        var missing: [String] = []
        for span in Documents.codeSpans(in: text) {
            if let match = span.wholeMatch(of: /([A-Z]\w*Tests)(?:\.(\w+))?/) {
                suite = String(match.1)
                if !Self.hasTest(suite: String(match.1), named: match.2.map(String.init)) {
                    missing.append(span)
                }
            } else if let match = span.wholeMatch(of: /\.(\w+)/), let suite {
                // `A.b`, `.c`: the second test of the same suite.
                if !Self.hasTest(suite: suite, named: String(match.1)) { missing.append(suite + span) }
            } else {
                suite = nil
            }
        }

        // Then
        #expect(missing.isEmpty, "\(document) names tests that do not exist: \(missing)")
    }

    @Test("every type a document names is the package's, or named as another's", arguments: Documents.all)
    @available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)  // Regex
    func typesExist(document: String) throws {
        // Given
        let text = try Documents.text(document)

        // When
        let cited = Documents.codeSpans(in: text).compactMap { span -> String? in
            guard let match = span.wholeMatch(of: /([A-Z][A-Za-z0-9]*)(?:<[^>]*>)?(?:\.\w+.*)?/) else {
                return nil
            }
            return String(match.1)
        }

        // Then
        let unknown = Set(cited).filter { Self.declared[$0] == nil && !Self.elsewhere.contains($0) }
        #expect(unknown.isEmpty, "\(document) names types nothing declares: \(unknown.sorted())")
    }

    /// Whether `suite` is declared in the tests and, when `test` is given, has a function of that
    /// name.
    static func hasTest(suite: String, named test: String?) -> Bool {
        guard let files = declared[suite]?.filter({ $0.hasPrefix("Tests/") }), !files.isEmpty else {
            return false
        }
        guard let test else { return true }
        return files.contains { testSources[$0]?.contains("func \(test)(") == true }
    }

    /// The tests' sources, read once for every document that names a test.
    static let testSources: [String: String] = Dictionary(
        uniqueKeysWithValues: Documents.swiftFiles(under: ["Tests"]).compactMap { path in
            (try? Documents.text(path)).map { (path, $0) }
        })

    @Test("every test the API contract article quotes by its name exists, word for word")
    func contractArticleQuotesRealTests() throws {
        // Given: the article, and the text of every test file
        let article = try Documents.text("Sources/OfflineKit/OfflineKit.docc/WhatYourAPIMustAnswer.md")
        let tests = try Documents.swiftFiles(under: ["Tests"]).map(Documents.text).joined(separator: "\n")

        // When: each quoted name (a long lower-case quotation), its lines joined
        let quoted = article.components(separatedBy: "\"").enumerated()
            .filter { $0.offset % 2 == 1 }
            .map { $0.element.split(whereSeparator: \.isNewline).joined(separator: " ") }
            .filter { $0.count > 25 && $0.first?.isLowercase == true }
        let missing = quoted.filter { !tests.contains($0) }

        // Then
        #expect(quoted.count >= 20, "\(quoted)")
        #expect(missing.isEmpty, "\(missing)")
    }
}
