import NIOCore
import PostgresNIO
import StratusCore

/// What the instances sharing one PostgreSQL database share besides the data.
extension PostgresStorage {
    /// The secret in `server_secrets`: the first instance to ask makes it, the rest read it.
    package func serverSecret() async throws -> [UInt8] {
        let fresh = ByteBuffer(bytes: SecretGenerator.randomBytes(32))
        let logger = self.logger
        let stored = try await client.withConnection { connection in
            try await connection.query("""
                INSERT INTO server_secrets (name, value) VALUES ('server', \(fresh)) ON CONFLICT (name) DO NOTHING
                """, logger: logger)
            return try await connection.query("SELECT value FROM server_secrets WHERE name = 'server'", logger: logger)
                .decode(ByteBuffer.self).first { _ in true }
        }
        guard let stored, stored.readableBytes == 32 else { throw CloudKitError(.internalError, "the server's secret is missing") }
        return Array(stored.readableBytesView)
    }

    /// Holds a session-level advisory lock named after the job while `body` runs; an instance
    /// that finds it held skips the job.
    package func exclusively(_ job: String, _ body: @Sendable () async throws -> Void) async throws -> Bool {
        // FNV-1a of the name: a stable 64-bit lock key.
        let key = Int64(bitPattern: job.utf8.reduce(UInt64(0xcbf2_9ce4_8422_2325)) { ($0 ^ UInt64($1)) &* 0x100_0000_01b3 })
        let logger = self.logger
        return try await client.withConnection { connection in
            let locked = try await connection.query("SELECT pg_try_advisory_lock(\(key))", logger: logger)
                .decode(Bool.self).first { _ in true } ?? false
            guard locked else { return false }
            do {
                try await body()
            } catch {
                _ = try? await connection.query("SELECT pg_advisory_unlock(\(key))", logger: logger)
                throw error
            }
            try await connection.query("SELECT pg_advisory_unlock(\(key))", logger: logger)
            return true
        }
    }
}
