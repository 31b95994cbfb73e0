import CSQLite  // SQLite, on every platform: Package.swift says how
import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The one `CSQLite` module links the platform's own SQLite: the SDK's on Apple platforms, the
/// system's on Linux, never a copy found on a search path (Homebrew's, say), and never a library
/// older than the header the package was compiled against.
@Suite("The SQLite library")
struct SQLiteLibraryTests {
    @Test("the library running is at least the version of the header compiled against")
    func libraryMatchesHeader() throws {
        // When
        let running = sqlite3_libversion_number()
        let version = String(cString: try #require(sqlite3_libversion()))

        // Then: equal on Linux, where one package ships both; on Apple platforms a newer system
        // may run what an older SDK's header compiled.
        #expect(running >= SQLITE_VERSION_NUMBER)
        #expect(version.split(separator: ".").count == 3, "\(version)")
        #if os(Linux)
            #expect(running == SQLITE_VERSION_NUMBER)
        #endif
    }

    @Test("the library loaded is the platform's own")
    func platformLibrary() throws {
        // When
        let path = try #require(try Self.loadedLibrary())

        // Then
        #expect(!["homebrew", "/usr/local/", "/opt/"].contains { path.contains($0) }, "\(path)")
        #if canImport(Darwin)
            #expect(path.hasSuffix("/usr/lib/libsqlite3.dylib"), "\(path)")
        #else
            #expect(path.hasPrefix("/") && path.contains("/libsqlite3.so"), "\(path)")
        #endif
    }

    /// The file of the SQLite library this process loaded: the image holding `sqlite3_libversion`
    /// (`dladdr`) on Apple platforms; on Linux, whose Glibc module does not offer `dladdr`, the
    /// library mapped in `/proc/self/maps`.
    static func loadedLibrary() throws -> String? {
        #if canImport(Darwin)
            let libversion: @convention(c) () -> UnsafePointer<CChar>? = sqlite3_libversion
            var info = Dl_info()
            guard dladdr(unsafeBitCast(libversion, to: UnsafeRawPointer.self), &info) != 0,
                let name = info.dli_fname
            else { return nil }
            return String(cString: name)
        #else
            _ = sqlite3_libversion()  // loaded, in case nothing called it yet
            // Read to the end, not by the file's size: `/proc` files have none.
            let file = try #require(FileHandle(forReadingAtPath: "/proc/self/maps"))
            defer { try? file.close() }
            let maps = String(decoding: file.readDataToEndOfFile(), as: UTF8.self)
            return maps.split(separator: "\n").lazy
                .compactMap { $0.split(separator: " ").last.map(String.init) }
                .first { $0.contains("libsqlite3") }
        #endif
    }
}
