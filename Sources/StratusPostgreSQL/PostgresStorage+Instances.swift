import NIOCore
import PostgresNIO
import StratusCore
import StratusServer

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

    package var fleetCounters: (any FleetCounters)? { PostgresFleetCounters(storage: self) }

    /// Takes the job's lease in `job_leases` (free, or left to expire by an instance that
    /// died), runs `body`, and gives the lease back; an instance that finds it held skips the
    /// job. No connection is held meanwhile.
    package func exclusively(_ job: String, _ body: @Sendable () async throws -> Void) async throws -> Bool {
        let now = clock.milliseconds
        let expires = now + Self.jobLease.milliseconds
        let taken = try await client.query("""
            INSERT INTO job_leases (name, holder, expires_at) VALUES (\(job), \(instance), \(expires))
            ON CONFLICT (name) DO UPDATE SET holder = EXCLUDED.holder, expires_at = EXCLUDED.expires_at
            WHERE job_leases.expires_at < \(now) RETURNING 1
            """, logger: logger).decode(Int32.self).first { _ in true }
        guard taken != nil else { return false }
        do {
            try await body()
        } catch {
            try? await client.query("DELETE FROM job_leases WHERE name = \(job) AND holder = \(instance)", logger: logger)
            throw error
        }
        try await client.query("DELETE FROM job_leases WHERE name = \(job) AND holder = \(instance)", logger: logger)
        return true
    }

    /// How long a job's lease lasts: past it, another instance may take over a job whose
    /// instance died holding it.
    static let jobLease = Duration.seconds(600)
}
