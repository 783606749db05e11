import Foundation
import Logging
import NIOCore
import PostgresNIO
import StratusCore
import StratusServer

/// Asset files' bytes in the database, so that every instance on it serves every file: a file is
/// rows of `asset_chunks`, pieces of ``chunkSize`` bytes numbered from 0 (stored uncompressed:
/// most assets are compressed already).
///
/// A file goes in through the write transaction that records its upload, a piece at a time read
/// from the received file, and comes out a piece per query: neither way holds it whole.
package struct PostgresBlobStore: BlobStore {
    let client: PostgresClient
    let logger: Logger

    /// Bytes per row: large enough that a 20 MB file is 20 rows, small enough to stay far below
    /// PostgreSQL's 1 GB field limit and to stream.
    static let chunkSize = 1024 * 1024

    init(storage: PostgresStorage) {
        client = storage.client
        logger = storage.logger
    }

    package func store(_ file: ReceivedFile, in transaction: any StorageTransaction) async throws -> Bool {
        let transaction = try Self.postgres(transaction)
        let exists = try await transaction.query("SELECT 1 FROM asset_chunks WHERE checksum = \(file.name) AND part = 0")
            .decode(Int32.self).first { _ in true } != nil
        if exists { return false }
        guard let handle = FileHandle(forReadingAtPath: file.temporaryPath) else {
            throw CloudKitError(.internalError, "the received file is gone")
        }
        defer { try? handle.close() }
        var part: Int32 = 0
        repeat {
            let piece = try handle.read(upToCount: Self.chunkSize) ?? Data()
            if piece.isEmpty && part > 0 { break }
            try await transaction.execute("""
                INSERT INTO asset_chunks (checksum, part, bytes) VALUES (\(file.name), \(part), \(ByteBuffer(data: piece)))
                """)
            part += 1
            if piece.count < Self.chunkSize { break }
        } while true
        try? FileManager.default.removeItem(atPath: file.temporaryPath)
        return true
    }

    package func remove(checksum: String, in transaction: any StorageTransaction) async throws {
        try await Self.postgres(transaction).execute("DELETE FROM asset_chunks WHERE checksum = \(checksum)")
    }

    package func size(checksum: String) async throws -> Int64? {
        try await client.query("""
            SELECT SUM(octet_length(bytes))::BIGINT FROM asset_chunks WHERE checksum = \(checksum) HAVING COUNT(*) > 0
            """, logger: logger).decode(Int64.self).first { _ in true }
    }

    package func read(checksum: String, bytes range: ClosedRange<Int64>?, _ consume: (ByteBuffer) async throws -> Void) async throws -> Bool {
        let chunk = Int64(Self.chunkSize)
        var part = Int32((range?.lowerBound ?? 0) / chunk)
        var found = false
        while let piece = try await client.query("""
            SELECT bytes FROM asset_chunks WHERE checksum = \(checksum) AND part = \(part)
            """, logger: logger).decode(ByteBuffer.self).first(where: { _ in true }) {
            found = true
            let start = Int64(part) * chunk
            part += 1
            guard let range else {
                try await consume(piece)
                continue
            }
            // The part of the piece inside the range.
            let from = Int(max(range.lowerBound - start, 0))
            let through = Int(min(range.upperBound - start, Int64(piece.readableBytes) - 1))
            if from <= through, let slice = piece.getSlice(at: piece.readerIndex + from, length: through - from + 1) { try await consume(slice) }
            if range.upperBound < start + Int64(piece.readableBytes) { break }
        }
        return found
    }

    private static func postgres(_ transaction: any StorageTransaction) throws -> PostgresTransaction {
        guard let transaction = transaction as? PostgresTransaction else {
            throw CloudKitError(.internalError, "PostgreSQL's blob store was handed another store's transaction")
        }
        return transaction
    }
}
