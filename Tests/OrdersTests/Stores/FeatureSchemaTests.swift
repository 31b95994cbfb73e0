import Foundation
import OrdersTesting
import Testing

@Suite("Feature schemas")
struct FeatureSchemaTests {
}
