import Foundation
import Testing

@testable import PromiseMVPTesting

/// The build folder is found from the test image itself, whatever runs the tests.
@Suite("BuildProducts")
struct BuildProductsTests {
    @Test(
        "the folder holds the .xctest product (an executable on Linux, a bundle on Apple platforms) or Xcode's frameworks",
        arguments: [
            ("/b/debug/PkgPackageTests.xctest", "/b/debug"),
            ("/b/debug/PkgPackageTests.xctest/Contents/MacOS/PkgPackageTests", "/b/debug"),
            ("/Xcode/Build/Products/Debug/AppTests.xctest/AppTests", "/Xcode/Build/Products/Debug"),
            ("/b/debug/tool", "/b/debug"),
            (
                "/Xcode/Build/Products/Debug/PackageFrameworks/PromiseMVPTesting.framework/Versions/A/PromiseMVPTesting",
                "/Xcode/Build/Products/Debug"
            ),
            (
                "/X/Debug-iphonesimulator/PackageFrameworks/PromiseMVPTesting.framework/PromiseMVPTesting",
                "/X/Debug-iphonesimulator"
            ),
            ("/Xcode/Build/Products/Debug/Other.framework/Other", "/Xcode/Build/Products/Debug"),
        ])
    func folderHoldingProduct(image: String, folder: String) {
        // Given / When / Then
        #expect(BuildProducts.folder(holding: image).path == folder)
    }

    @Test("under swift test the folder holds this test product and the package's executables")
    func folderHoldsProducts() throws {
        // Given / When
        let names = try FileManager.default.contentsOfDirectory(atPath: BuildProducts.folder.path)

        // Then
        #expect(names.contains { $0.hasSuffix(".xctest") })
        // The package's executables are built for macOS and Linux only (Package.swift): a test
        // build for an iOS, tvOS, watchOS or visionOS simulator has none beside it.
        #if os(macOS) || os(Linux)
            #expect(FileManager.default.isExecutableFile(atPath: BuildProducts.executable("demo").path))
        #endif
    }
}
