import Foundation  // String.contains(_:) before macOS 13 / iOS 16
import Testing

@testable import Promises

struct AbandonedGuaranteeMarker: Sendable {}

/// A guarantee dropped while pending is reported as a guarantee. In the diagnostics suite, which is
/// serialized because the hook is process-wide.
extension DiagnosticsTests {
    @Test("a guarantee dropped while pending is reported once, as a guarantee")
    func abandonedGuaranteeIsReportedAsGuarantee() async {
        // When
        let lines = await reports(about: AbandonedGuaranteeMarker.self) {
            let (guarantee, _) = Guarantee<AbandonedGuaranteeMarker>.pending()
            _ = guarantee.map(on: .inline) { $0 }
        }

        // Then
        #expect(
            lines == [
                "Guarantee<AbandonedGuaranteeMarker> was deallocated while pending: its resolve function was dropped without settling it"
            ])
    }

    @Test("a guarantee made with a closure that drops its resolve function is reported as a guarantee")
    func abandonedClosureGuaranteeIsReportedAsGuarantee() async {
        // When
        let lines = await reports(about: AbandonedGuaranteeMarker.self) {
            _ = Guarantee<AbandonedGuaranteeMarker> { _ in }
        }

        // Then
        #expect(lines.count == 1)
        #expect(lines.first?.hasPrefix("Guarantee<AbandonedGuaranteeMarker> was deallocated") == true)
    }
}
