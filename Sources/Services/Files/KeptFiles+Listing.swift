import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

extension KeptFiles {
    /// A kept file and when it was last kept or read (its modification time).
    package struct Listed: Sendable {
        package let file: KeptFile
        /// Seconds since 1970.
        package let usedAt: Double
    }

    /// Every file the folder keeps under a digest's name (not one being written), in no order;
    /// none when the folder was never made.
    ///
    /// - Returns: The files.
    package func all() -> [Listed] {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder.path) else { return [] }
        return names.filter(Self.isDigest).compactMap { name in
            let url = url(sha256: name)
            // Foundation's attributes read the same on every platform; a file removed meanwhile is
            // not listed.
            guard let attributes = try? FileManager.default.attributesOfItem(atPath: url.path),
                let size = attributes[.size] as? NSNumber,
                let modified = attributes[.modificationDate] as? Date
            else { return nil }
            return Listed(
                file: KeptFile(sha256: name, size: size.int64Value, url: url),
                usedAt: modified.timeIntervalSince1970)
        }
    }

    /// Marks the file of `sha256` used now (its modification time), so that a budget lets go of
    /// files read longest ago first; a file gone is left gone.
    ///
    /// - Parameter sha256: The digest, lowercase hex.
    package func markUsed(sha256: String) {
        guard Self.isDigest(sha256) else { return }
        _ = utimes(url(sha256: sha256).path, nil)
    }
}
