import Foundation
import Testing
import StratusCore
@testable import StratusServer

/// A device token lives as long as the session that registered it: signing out, signing out
/// everywhere, a password change or reset, disabling and deleting the account take it away, and
/// the device gets that user's pushes no more.
@Suite struct APNsSessionTests {
    static func token(_ byte: String) -> String { String(repeating: byte, count: 32) }

    /// Another session of the caller's account (another device).
    static func anotherDevice(_ caller: Caller, _ server: TestServer) async throws -> Caller {
        let session = try await AdministrationTests.signIn(server, try #require(caller.username), "password-alice").decode(SignInResponse.self)
        return Caller(server: server.endpoint, webAuthToken: session.ckWebAuthToken, userRecordName: session.userRecordName,
                      username: caller.username)
    }

    static func stored(_ server: TestServer, _ user: Caller, liveAt: Int64? = nil) async throws -> Set<String> {
        let user = try #require(user.userRecordName)
        return Set(try await server.server.services.storage.read {
            try await $0.apnsTokens(containerID: TestServer.containerID, environment: .development, user: user, liveAt: liveAt)
        }.map(\.token))
    }

    @Test func aDeviceTokenEndsWithTheSessionThatRegisteredIt() async throws {
        try await APNsTests.withServer { server, endpoint in
            let phone = try await server.signUp("alice")
            let tablet = try await Self.anotherDevice(phone, server)
            let laptop = try await Self.anotherDevice(phone, server)
            for (device, byte) in [(phone, "a1"), (tablet, "b2"), (laptop, "c3")] {
                #expect(try await APNsTests.register(device, Self.token(byte)).status == 200)
            }
            try await phone.createZone("Notes")
            try await APNsTests.subscribe(phone, CloudSubscription(subscriptionID: "notes", subscriptionType: .zone, zoneID: ZoneID(zoneName: "Notes"),
                                                              notificationInfo: NotificationInfo(shouldSendContentAvailable: true)))
            _ = try await phone.save([.create("n1")], zone: "Notes")
            #expect(Set(try await APNsTests.pushes(endpoint, count: 3).map(\.deviceToken)) == [Self.token("a1"), Self.token("b2"), Self.token("c3")])

            // The phone signs out: its token goes, and the next change reaches the other two only
            // (the provider's cached device list went with it).
            #expect(try await phone.post("/auth/1/\(TestServer.containerID)/development/signout", [String: String]()).status == 200)
            #expect(try await Self.stored(server, phone) == [Self.token("b2"), Self.token("c3")])
            _ = try await tablet.save([.create("n2")], zone: "Notes")
            let afterSignOut = try await APNsTests.pushes(endpoint, count: 5).dropFirst(3).map(\.deviceToken)
            try await Task.sleep(for: .milliseconds(300))
            #expect(await endpoint.received.count == 5 && !afterSignOut.contains(Self.token("a1")), "\(afterSignOut)")

            // A token whose session has expired is not read for pushes (sessions last 14 days here).
            let inAMonth = server.now + 30 * 24 * 3_600_000
            #expect(try await Self.stored(server, phone, liveAt: inAMonth).isEmpty)

            // A password change on the tablet ends the laptop's session, and its token.
            let changed = try await tablet.post("/auth/1/\(TestServer.containerID)/development/password",
                                                json: #"{"password":"password-alice","newPassword":"a new password"}"#)
            #expect(changed.status == 200, "\(changed.text)")
            #expect(try await Self.stored(server, phone) == [Self.token("b2")])

            // Signing out everywhere leaves none.
            #expect(try await tablet.post("/auth/1/\(TestServer.containerID)/development/signout/all", [String: String]()).status == 200)
            #expect(try await Self.stored(server, phone).isEmpty)
        }
    }

    @Test func disablingResettingAndDeletingTakeTheTokensAway() async throws {
        try await APNsTests.withServer { server, _ in
            let admin = server.server.services.admin
            let actions: [(String, @Sendable (String) async throws -> Void)] = [
                ("disable", { _ = try await admin.setDisabled(true, username: $0, containerID: TestServer.containerID) }),
                ("reset", { try await admin.resetPassword(username: $0, containerID: TestServer.containerID, to: "another password") }),
                ("delete", { try await admin.deleteUser(username: $0, containerID: TestServer.containerID) }),
            ]
            for (name, action) in actions {
                let user = try await server.signUp("alice")
                #expect(try await APNsTests.register(user, Self.token("d4")).status == 200)
                #expect(try await Self.stored(server, user) == [Self.token("d4")])
                try await action(try #require(user.username))
                #expect(try await Self.stored(server, user).isEmpty, "after \(name)")
            }
        }
    }
}
