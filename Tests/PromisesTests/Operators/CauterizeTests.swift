import Foundation  // String.contains(_:) before macOS 13 / iOS 16
import Testing

@testable import Promises

struct CauterizedMarker: Error, Sendable {}

/// A cancellation whose name the reports would carry, were it reported.
struct CauterizedCancellationMarker: CancellableError {
    var isCancelled: Bool { true }
}

/// `cauterize()` ends a chain and logs its error through the diagnostics hook. In the diagnostics
/// suite, which is serialized because the hook is process-wide.
extension DiagnosticsTests {
    @Test("an error reaching cauterize is reported once as cauterized, never as unhandled")
    func cauterizedErrorIsReported() async {
        // When
        let lines = await reports(about: CauterizedMarker.self) {
            _ = await outcome(of: Promise<Int>(error: CauterizedMarker()).cauterize())
        }

        // Then
        #expect(lines.count == 1)
        #expect(lines.first?.hasPrefix("an error ended at cauterize(): ") == true)
    }

    @Test("a cancellation or a value reaching cauterize is not reported")
    func cauterizeIgnoresCancellationAndValues() async {
        // When
        let lines = await reports(about: CauterizedCancellationMarker.self) {
            _ = await outcome(of: Promise<Int>(error: CauterizedCancellationMarker()).cauterize())
            _ = await outcome(of: Promise.value(CauterizedCancellationMarker()).cauterize())
        }

        // Then
        #expect(lines.isEmpty)
    }
}
