import Foundation
import Testing
import StratusClient
import StratusTesting

/// The Notes app as it ships, set up with Sign in with Apple: `notes setup` reads an identity
/// token from a file (as a test or a script holds one), and two devices of one Apple ID share the note.
@Suite struct NotesAppleSignInTests {
    @Test func twoDevicesSignedInWithOneAppleIDShareTheNote() async throws {
        try await AppleTestIssuer.with { apple in
            try await TestCloud.with(configure: apple.configure) { cloud in
                let app = CrashWindowTests.App(root: cloud.root.appendingPathComponent("notes-devices"))
                let (url, token) = (await cloud.baseURL, await cloud.apiToken)
                for device in ["phone", "laptop"] {
                    let file = cloud.root.appendingPathComponent("\(device)-identity-token")
                    try Data(try await apple.token(subject: "001.frank", email: "frank@privaterelay.appleid.com", nonce: "nonce-\(device)").utf8)
                        .write(to: file)
                    try await app.run(device, ["setup", "--server", url, "--container", TestCloud.containerID, "--api-token", token,
                                               "--apple-identity-token-file", file.path, "--apple-nonce", "nonce-\(device)"])
                }
                try await app.run("phone", ["edit", "Buy milk"])
                try await app.run("phone", ["sync"])
                #expect(try await app.run("laptop", ["sync"]).contains("Buy milk"))
            }
        }
    }
}
