import Crypto
import Foundation

/// The PostgreSQL database a test's server keeps its data in when the suite runs against
/// PostgreSQL (`STRATUS_TEST_POSTGRES=postgres://user@host:port`, set by `scripts/test-postgres.sh`):
/// one database per data directory, so a server restarted on the same directory finds its data.
enum TestDatabase {
    static func url(for directory: URL, base: String) throws -> String {
        let digest = SHA256.hash(data: Data(directory.standardizedFileURL.path.utf8))
        let name = "stratus_" + digest.prefix(10).map { String(format: "%02x", $0) }.joined()
        let psql = Process()
        psql.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        psql.arguments = ["sh", "-c", "psql '\(base)/postgres' -qAt -c \"SELECT 1 FROM pg_database WHERE datname = '\(name)'\" | grep -q 1 "
                          + "|| psql '\(base)/postgres' -q -c 'CREATE DATABASE \(name)'"]
        try psql.run()
        psql.waitUntilExit()
        guard psql.terminationStatus == 0 else { throw CocoaError(.fileWriteUnknown) }
        return "\(base)/\(name)"
    }
}
