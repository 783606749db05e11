import Crypto
import Foundation
import Testing
import StratusCore
@testable import StratusServer

/// Container identifiers name directories (archives, `--export-on-exit`), so one that could walk
/// out of its directory never enters: not by the CLI or console (which create containers through
/// the admin service), not by an archive, and no path is built from one unchecked.
@Suite struct ContainerIdentifierTests {
    static let hostile = ["iCloud./../../x", "iCloud.a..b", "iCloud.", "iCloud.a/b", "iCloud.a.", "icloud.com.example", "iCloud.a b",
                          "iCloud.\u{0}", "iCloud.é"]

    @Test func onlyReverseDNSIdentifiersAreCreated() async throws {
        try await TestServer.with { server in
            for id in Self.hostile {
                do {
                    _ = try await server.server.services.admin.createContainer(id: id)
                    Issue.record("container \(id.debugDescription) was created")
                } catch let error as CloudKitError {
                    #expect(error.code == .badRequest)
                }
            }
            for id in ["iCloud.com.example.app", "iCloud.com.example-co.my_app2"] {
                #expect(try await server.server.services.admin.createContainer(id: id).id == id)
            }
        }
    }

    /// A container in a request's path is checked before it reaches the store (PostgreSQL refuses
    /// a NUL in text with an error of its own).
    @Test func aRequestForAnInvalidContainerIsABadRequest() async throws {
        try await TestServer.with { server in
            for container in ["iCloud.a%00b", "iCloud..x", "nope"] {
                for path in ["/database/1/\(container)/development/public/records/query", "/auth/1/\(container)/development/signin"] {
                    let answer = try await server.anonymous.post(path, json: #"{"query":{"recordType":"T"}}"#)
                    #expect(answer.status == 400 && answer.errorCode == .badRequest, "\(path): \(answer.status) \(answer.text)")
                }
            }
        }
    }

    @Test func noArchiveDirectoryLeavesItsParent() throws {
        let parent = TestServer.temporaryDirectory()
        for id in Self.hostile { #expect(throws: TransferError.self) { try ContainerArchive.directory(for: id, in: parent) } }
        #expect(try ContainerArchive.directory(for: "iCloud.com.example", in: parent).path == parent.appendingPathComponent("iCloud.com.example").path)
    }

    /// An archive whose manifest and lines both name a traversing container (a consistent,
    /// hand-made archive) is refused before anything is loaded.
    @Test func anArchiveOfAnInvalidIdentifierIsRefused() async throws {
        let archive = TestServer.temporaryDirectory().appendingPathComponent("archive")
        try await TestServer.with { server in
            _ = try await server.signUp("alice")
            _ = try await server.server.services.admin.exportContainer(id: TestServer.containerID, to: archive, includingSecrets: false, includingHistory: false) { _ in }
        }
        let hostile = "iCloud./../../escaped"
        let linesFile = archive.appendingPathComponent(ContainerArchive.linesFile)
        let lines = try String(contentsOf: linesFile, encoding: .utf8).replacingOccurrences(of: TestServer.containerID, with: hostile)
        try lines.write(to: linesFile, atomically: true, encoding: .utf8)
        var manifest = try ArchiveManifest.read(from: archive)
        manifest.containerID = hostile
        manifest.linesSHA256 = SHA256.hash(data: Data(lines.utf8)).map { String(format: "%02x", $0) }.joined()
        try BackupFiles.writeManifest(manifest, to: archive)

        try await TestServer.with { server in
            let error = await #expect(throws: TransferError.self) { try await server.server.services.admin.importContainer(from: archive) { _ in } }
            #expect(error?.description.contains("not valid") == true, "\(String(describing: error))")
            let containers = try await server.server.services.admin.listContainers().map(\.id)
            #expect(containers == [TestServer.containerID])
        }
    }
}
