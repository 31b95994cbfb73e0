import Foundation
import MutationKit

/// Builds the scratch copy with `swift build --build-tests` and runs its tests with `swift test
/// --skip-build`; `suite` (the `--filter` option) stands for the whole suite when given.
struct SwiftPackageChecker: MutantChecker {
    let folder: String
    let testTimeout: TimeInterval
    var suite: String?

    func builds() throws -> Bool {
        if case .exited(0) = try Shell.run(["swift", "build", "--build-tests"], in: folder, timeout: 1_800) {
            return true
        }
        return false
    }

    func runTests(_ filter: String?) throws -> TestRun {
        let pattern = filter ?? suite
        let command = ["swift", "test", "--skip-build"] + (pattern.map { ["--filter", $0] } ?? [])
        switch try Shell.run(command, in: folder, timeout: testTimeout) {
        case .exited(0): return .passed
        case .exited: return .failed
        case .timedOut: return .timedOut
        }
    }
}
