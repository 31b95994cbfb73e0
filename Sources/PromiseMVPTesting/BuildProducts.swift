public import Foundation

/// Where the build put its products, so a test can run an executable of the same package (a
/// command-line tool, a helper that is killed on purpose) as a subprocess.
public enum BuildProducts {
    /// The folder holding the package's executables and test bundle.
    ///
    /// The seam for finding it, the same code on every platform: the image this module's code was
    /// linked into (`Bundle(for:)` asks the dynamic loader, on Linux too), which is the test
    /// product itself, and the folder that holds it. On Linux the tests are an executable,
    /// `…PackageTests.xctest`, in the build folder. On Apple platforms they are a bundle,
    /// `…PackageTests.xctest/Contents/MacOS/…` beside the executables, that XCTest's runner, Swift
    /// Testing's helper (`swift test`) or Xcode loads: neither `Bundle.main` (the runner's) nor
    /// the bundles loaded so far (Swift Testing's helper loads no XCTest bundle) say where it is,
    /// but the loader does. The last path component ending in `.xctest` is the product, so the
    /// folder is the one that holds it; an image outside any `.xctest` gives its own folder, unless it
    /// is a framework Xcode built: then the folder that holds its `PackageFrameworks`.
    public static var folder: URL {
        folder(holding: Bundle(for: Marker.self).executablePath ?? CommandLine.arguments[0])
    }

    /// An executable product of the package, such as `demo`.
    ///
    /// - Parameter name: The product's name.
    /// - Returns: Its address in the build folder.
    public static func executable(_ name: String) -> URL {
        folder.appendingPathComponent(name)
    }

    /// The build folder for a test image at `path`: the folder of its outermost `.xctest`; or, when
    /// Xcode linked this module as a framework (`…/Debug/PackageFrameworks/PromiseMVPTesting.framework/…`,
    /// the image is then the framework, not the tests), the folder that holds the framework's
    /// `PackageFrameworks`, where Xcode puts the executables too.
    static func folder(holding path: String) -> URL {
        var url = URL(fileURLWithPath: path).standardizedFileURL
        let components = url.pathComponents
        let product =
            components.firstIndex { $0.hasSuffix(".xctest") }
            ?? components.firstIndex { $0.hasSuffix(".framework") }.map { framework in
                components[..<framework].last == "PackageFrameworks" ? framework - 1 : framework
            }
        if let product {
            for _ in product..<components.count { url.deleteLastPathComponent() }
            return url
        }
        return url.deletingLastPathComponent()
    }

    /// A class of this module, for asking which image holds it.
    private final class Marker {}
}
