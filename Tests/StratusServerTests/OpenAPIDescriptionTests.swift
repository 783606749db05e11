import Foundation
import Hummingbird
import StratusSQLite
import StratusServer
import Testing

/// `docs/openapi.yaml`, the published API reference, describes exactly the routes the server
/// serves: a route added without its description, or a described path the server does not answer,
/// fails here. (`scripts/schemathesis.sh` checks the bodies against a running server.)
@Suite struct OpenAPIDescriptionTests {
    static let document = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../../docs/openapi.yaml").standardized

    /// The WebSocket upgrade is answered before routing (`PushRoutes.shouldUpgrade`).
    static let upgradeRoutes: Set<String> = ["GET /push/1/{container}/{environment}/websocket"]

    /// The web console's pages are a browser interface for administrators, not part of the API
    /// (`ConsoleTests` and `scripts/check-console.sh` test them), so the reference leaves them out.
    static func isConsolePage(_ operation: String) -> Bool {
        operation.split(separator: " ").last.map { $0 == "/console" || $0.hasPrefix("/console/") } ?? false
    }

    /// `METHOD /path/{parameter}` for every operation under `paths:`.
    static func describedOperations() throws -> Set<String> {
        let lines = try String(contentsOf: document, encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: false)
        var operations: Set<String> = []
        var path: String?
        var inPaths = false
        for line in lines {
            if line.hasPrefix("paths:") { inPaths = true; continue }
            if inPaths, let first = line.first, first != " " { break }
            guard inPaths else { continue }
            if let match = line.wholeMatch(of: /\ \ (\/\S+):/) {
                path = String(match.1)
            } else if let match = line.wholeMatch(of: /\ {4}(get|post|put|patch|delete):/), let path {
                operations.insert("\(match.1.uppercased()) \(path)")
            }
        }
        return operations
    }

    @Test func describedPathsAreTheServedRoutes() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("openapi-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        var configuration = ServerConfiguration(dataDirectory: directory, port: 0)
        configuration.storageDrivers = [.sqlite]
        let server = try await StratusServer(configuration: configuration)
        let served = Set(server.makeRouter().routes.map { route in
            let path = route.path.description.split(separator: "/").map { segment in
                segment.hasPrefix(":") ? "{\(segment.dropFirst())}" : String(segment)
            }.joined(separator: "/")
            return "\(route.method.rawValue) /\(path)"
        }.filter { !Self.isConsolePage($0) })
        let described = try Self.describedOperations()
        #expect(described.count > 20)
        #expect(served.union(Self.upgradeRoutes).subtracting(described).sorted() == [], "served but not described")
        #expect(described.subtracting(served.union(Self.upgradeRoutes)).sorted() == [], "described but not served")
    }
}
