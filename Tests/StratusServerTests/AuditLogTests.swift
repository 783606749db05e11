import Foundation
import Testing
import StratusCore
import StratusTesting
@testable import StratusServer

/// The administrators' audit log: a change made in the console and one made at the command line
/// are each recorded with who, from where and what, shown on the console's activity page, and go
/// with the container's export.
@Suite struct AuditLogTests {
    @Test(.timeLimit(.minutes(3)))
    func consoleAndCommandLineChangesAreRecordedShownAndExported() async throws {
        let directory = TestServer.temporaryDirectory()
        let archive = TestServer.temporaryDirectory()
        try await TestServer.with(dataDirectory: directory) { server in
            let (cookie, csrf) = try await ConsoleTests.administrator(server, directory: directory)
            let erin = try await server.signUp("erin")
            let name = try #require(erin.username)
            let users = "/console/containers/\(TestServer.containerID)/users"
            #expect(try await ConsoleTests.request(server, .POST, "\(users)/\(name)/disable", form: "csrf=\(csrf)", cookie: cookie).status == 303)
            _ = try await AdministrationTests.stratus(["user", "enable", name], directory)
            _ = try await AdministrationTests.stratus(["container", "web-origin", "add", "https://app.example.com"], directory)

            let entries = try await server.server.services.admin.auditEntries(containerID: TestServer.containerID)
            let disable = try #require(entries.first { $0.action == "user.disable" }, "\(entries)")
            #expect(disable.actor == "root" && disable.origin == "console from 127.0.0.1" && disable.detail == name)
            let enable = try #require(entries.first { $0.action == "user.enable" }, "\(entries)")
            #expect(enable.origin.hasPrefix("command line on ") && enable.detail == name && !enable.actor.isEmpty)
            #expect(entries.contains { $0.action == "web-origin.add" && $0.detail == "https://app.example.com" })
            #expect(try await server.server.services.admin.auditEntries().contains { $0.action == "administrator.create" && $0.detail == "root" },
                    "the administrator made by `stratus admin create` is recorded, for the server as a whole")

            let page = try await ConsoleTests.request(server, .GET, "/console/activity", cookie: cookie)
            #expect(page.text.contains("<td>user.disable</td>") && page.text.contains("<td>console from 127.0.0.1</td>"), "\(page.text.prefix(200))")

            _ = try await server.server.services.admin.exportContainer(id: TestServer.containerID, to: archive, includingSecrets: false, includingHistory: false) { _ in }
        }
        let lines = try String(contentsOf: archive.appendingPathComponent("container.jsonl"), encoding: .utf8)
        #expect(lines.contains(#""kind":"auditEntry""#) && lines.contains("user.disable"))
        let store = TestServer.temporaryDirectory()
        let imported = try await ServerProcess.run(["import", "--data", store.path, "--from", archive.path])
        #expect(imported.status == 0, "\(imported.output)")
        try await TestServer.with(dataDirectory: store) { server in
            let entries = try await server.server.services.admin.auditEntries(containerID: TestServer.containerID)
            #expect(entries.contains { $0.action == "user.disable" && $0.origin == "console from 127.0.0.1" }, "the export's entries came along: \(entries)")
            let all = try await server.server.services.admin.auditEntries()
            #expect(all.contains { $0.action == "container.import" && $0.containerID.isEmpty && $0.origin.hasPrefix("command line on ") })
        }
    }
}
