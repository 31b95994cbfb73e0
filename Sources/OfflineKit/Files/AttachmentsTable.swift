import Foundation
import Services

/// The SQL of the `offline_attachments` table: what each attachment is, where its upload stands
/// (the upload's URL once the API made it, the bytes it confirmed, its id once complete), and whose
/// it is. The file itself is in the folder of ``KeptFiles``, never in the database.
enum AttachmentsTable {
    /// The table's name, as its schema and what observes it name it.
    static let name = "offline_attachments"

    static let migrations = [
        Migration(
            version: 1,
            sql: """
                CREATE TABLE offline_attachments (
                    feature TEXT NOT NULL,
                    id TEXT NOT NULL,
                    name TEXT NOT NULL,
                    content_type TEXT NOT NULL,
                    size INTEGER NOT NULL,
                    sha256 TEXT NOT NULL,
                    location TEXT,
                    sent INTEGER NOT NULL DEFAULT 0,
                    api_id TEXT,
                    account TEXT,
                    PRIMARY KEY (feature, id)
                );
                CREATE INDEX offline_attachments_by_file ON offline_attachments (sha256);
                """)
    ]

    /// One attachment's row.
    struct Row: Sendable {
        let attachment: OfflineAttachment
        let location: URL?
        let sent: Int64
        let apiID: String?
    }

    static func insert(
        _ attachment: OfflineAttachment, feature: String, account: String?, _ connection: Connection
    )
        throws
    {
        try connection.execute(
            """
            INSERT INTO offline_attachments (feature, id, name, content_type, size, sha256, account)
            VALUES (?, ?, ?, ?, ?, ?, ?)
            """,
            [
                .text(feature), .text(attachment.id), .text(attachment.name), .text(attachment.contentType),
                .integer(attachment.size), .text(attachment.sha256), account.map(SQLValue.text) ?? .null,
            ])
    }

    /// The row of `id` (this device's id or the API's).
    static func row(_ id: String, feature: String, _ connection: Connection) throws -> Row? {
        try connection.query(
            """
            SELECT id, name, content_type, size, sha256, location, sent, api_id FROM offline_attachments
            WHERE feature = ? AND (id = ? OR api_id = ?)
            """, [.text(feature), .text(id), .text(id)]
        ) { row in
            Row(
                attachment: try attachment(row),
                location: try row.optionalString("location").flatMap(URL.init(string:)),
                sent: Int64(try row.int("sent")), apiID: try row.optionalString("api_id"))
        }.first
    }

    /// The attachments not uploaded yet, in the order they were attached.
    static func unfinished(feature: String, _ connection: Connection) throws -> [OfflineAttachment] {
        try connection.query(
            """
            SELECT id, name, content_type, size, sha256 FROM offline_attachments
            WHERE feature = ? AND api_id IS NULL ORDER BY rowid
            """, [.text(feature)], map: attachment)
    }

    /// The digests of the files whose upload is not complete, of `feature` or of every feature
    /// (none when no attachment was ever made in the file): files no storage budget lets go of.
    static func notUploaded(feature: String?, _ connection: Connection) throws -> Set<String> {
        let made = try connection.scalar(
            "SELECT COUNT(*) FROM sqlite_master WHERE type = 'table' AND name = 'offline_attachments'")
        guard made != .integer(0) else { return [] }
        return Set(
            try connection.query(
                "SELECT sha256 FROM offline_attachments WHERE api_id IS NULL AND (?1 IS NULL OR feature = ?1)",
                [feature.map(SQLValue.text) ?? .null]
            ) { try $0.string("sha256") })
    }

    /// The attachment a row describes.
    private static func attachment(_ row: ColumnReader) throws -> OfflineAttachment {
        OfflineAttachment(
            id: try row.string("id"), name: try row.string("name"),
            contentType: try row.string("content_type"),
            size: Int64(try row.int("size")), sha256: try row.string("sha256"))
    }

    /// Where an upload was made, kept before its first byte goes: a later process resumes it.
    static func began(_ id: String, at location: URL, feature: String, _ connection: Connection) throws {
        try connection.execute(
            "UPDATE offline_attachments SET location = ? WHERE feature = ? AND id = ?",
            [.text(location.absoluteString), .text(feature), .text(id)])
    }

    /// The bytes the API confirmed.
    static func sent(_ id: String, _ bytes: Int64, feature: String, _ connection: Connection) throws {
        try connection.execute(
            "UPDATE offline_attachments SET sent = ? WHERE feature = ? AND id = ?",
            [.integer(bytes), .text(feature), .text(id)])
    }

    /// The upload complete, under the API's id.
    static func uploaded(_ id: String, apiID: String, feature: String, _ connection: Connection) throws {
        try connection.execute(
            "UPDATE offline_attachments SET api_id = ?, sent = size WHERE feature = ? AND id = ?",
            [.text(apiID), .text(feature), .text(id)])
    }

    /// Removes the row of `id`; the digest of its file, when no other row keeps that file.
    static func remove(_ id: String, feature: String, _ connection: Connection) throws -> String? {
        guard let row = try row(id, feature: feature, connection) else { return nil }
        try connection.execute(
            "DELETE FROM offline_attachments WHERE feature = ? AND id = ?",
            [.text(feature), .text(row.attachment.id)])
        return try isKept(row.attachment.sha256, connection) ? nil : row.attachment.sha256
    }

    /// Whether any attachment still keeps the file of `sha256`.
    static func isKept(_ sha256: String, _ connection: Connection) throws -> Bool {
        try connection.scalar("SELECT count(*) FROM offline_attachments WHERE sha256 = ?", [.text(sha256)])
            != .integer(0)
    }
}
