public import Foundation

/// Where the build put its products, so a test can run an executable of the same package (a
/// command-line tool, a helper that is killed on purpose) as a subprocess.
public enum BuildProducts {
    /// The folder holding the package's executables and test bundle.
    ///
    /// The seam for finding it: on Linux the tests run as an executable (`…PackageTests.xctest`)
    /// in that folder; on Apple platforms a runner from the toolchain loads the test bundle, so
    /// the folder is the bundle's.
    public static var folder: URL {
        #if os(Linux)
            URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        #elseif canImport(Darwin)
            (Bundle.allBundles.first { $0.bundlePath.hasSuffix(".xctest") } ?? Bundle.main).bundleURL
                .deletingLastPathComponent()
        #else
            #error("BuildProducts knows where Linux and Apple platforms put build products")
        #endif
    }

    /// An executable product of the package, such as `demo`.
    ///
    /// - Parameter name: The product's name.
    /// - Returns: Its address in the build folder.
    public static func executable(_ name: String) -> URL {
        folder.appendingPathComponent(name)
    }
}
