import Crypto
import Foundation
import StratusServer

/// The PostgreSQL database a test's server keeps its data in when the tests run against
/// PostgreSQL (``postgresURL``, set by `scripts/test-postgres.sh`): one database per data
/// directory, made with `psql` when first asked for, so a server restarted on the same directory
/// finds its data.
package enum TestDatabase {
    /// The PostgreSQL server tests run against (`STRATUS_TEST_POSTGRES=postgres://user@host:port`),
    /// or nil on SQLite.
    package static let postgresURL = ProcessInfo.processInfo.environment["STRATUS_TEST_POSTGRES"]

    /// When tests run on PostgreSQL and `configuration` names no database, points it at the
    /// database of its data directory (with four connections: one test's load is small).
    package static func place(_ configuration: inout ServerConfiguration) async throws {
        guard let base = postgresURL, configuration.databaseURL == nil else { return }
        configuration.databaseURL = try await url(for: configuration.dataDirectory, base: base)
        configuration.databaseConnections = 4
        if configuration.encryptionKeyFile == nil && configuration.encryptionKey == nil { configuration.encryptionKey = masterKey }
    }

    /// The master key of every server and command of a PostgreSQL run, whatever its data
    /// directory, as every instance of one database has the same (a test's own wins).
    package static let masterKey = "c3RyYXR1cyB0ZXN0IG1hc3RlciBrZXkgLSAzMiBieXQ="

    /// The database of `directory` on the server at `base`, created if it does not exist.
    package static func url(for directory: URL, base: String) async throws -> String {
        let name = name(for: directory)
        let script = "psql '\(base)/postgres' -qAt -c \"SELECT 1 FROM pg_database WHERE datname = '\(name)'\" | grep -q 1 "
            + "|| psql '\(base)/postgres' -q -c 'CREATE DATABASE \(name)'"
        let (status, output) = try await ChildProcess.run("/bin/sh", ["-c", script])
        guard status == 0 else { throw ChildProcessError("could not create the test database \(name): \(output)") }
        return "\(base)/\(name)"
    }

    /// Runs an SQL file (a `pg_dump`) in the database of `directory`, stopping at its first error.
    package static func load(_ file: URL, for directory: URL, base: String) async throws {
        let (status, output) = try await ChildProcess.run("psql", ["\(base)/\(name(for: directory))", "-q", "-v", "ON_ERROR_STOP=1", "-f", file.path])
        guard status == 0 else { throw ChildProcessError("psql could not load \(file.lastPathComponent): \(output)") }
    }

    /// Runs a statement in the database of `directory`.
    package static func execute(_ sql: String, for directory: URL, base: String) async throws {
        let (status, output) = try await ChildProcess.run("psql", ["\(base)/\(name(for: directory))", "-q", "-c", sql])
        guard status == 0 else { throw ChildProcessError("psql failed: \(output)") }
    }

    /// The rows a query returns in the database of `directory`, a line each.
    package static func rows(_ sql: String, for directory: URL, base: String) async throws -> [String] {
        let (status, output) = try await ChildProcess.run("psql", ["\(base)/\(name(for: directory))", "-qAt", "-c", sql], capturingStandardError: false)
        guard status == 0 else { throw ChildProcessError("psql failed: \(output)") }
        return output.split(separator: "\n").map(String.init)
    }

    private static func name(for directory: URL) -> String {
        let digest = SHA256.hash(data: Data(directory.standardizedFileURL.path.utf8))
        return "stratus_" + digest.prefix(10).map { String(format: "%02x", $0) }.joined()
    }
}
