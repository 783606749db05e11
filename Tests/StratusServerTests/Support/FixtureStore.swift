import Foundation
import StratusTesting

/// Stores that earlier builds wrote through their HTTP API (`Tests/Fixtures`), each as a data
/// directory and as a PostgreSQL dump (`pg_dump --inserts`) of the same writes.
struct FixtureStore {
    /// The fixtures' folder.
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../../Fixtures").standardized

    /// The data directory `data-<build>` and the dump `postgres-<build>.sql`.
    var build: String

    /// A copy for one test: the data directory copied, or in the PostgreSQL run the dump loaded
    /// into the test's database. The returned directory is the test's to remove.
    func copy() async throws -> URL {
        let directory = TestServer.temporaryDirectory()
        if let base = TestServer.postgresURL {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            _ = try await TestDatabase.url(for: directory, base: base)
            try await TestDatabase.load(Self.folder.appendingPathComponent("postgres-\(build).sql"), for: directory, base: base)
        } else {
            try FileManager.default.copyItem(at: Self.folder.appendingPathComponent("data-\(build)"), to: directory)
        }
        return directory
    }
}
