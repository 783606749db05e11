import Foundation
import NotesKit
import StratusClient
import StratusTesting
import Testing

/// The Notes app brings back the note's previous version from the server's history: the restore
/// is a new change every device fetches, its text (an asset) downloads again, and a device still
/// holding an older edit offline loses to neither by accident — the latest `modified` wins.
@Suite struct RestoreVersionTests {
    @Test func aRestoredVersionReachesEveryDevice() async throws {
        try await TestCloud.with { cloud in
            let user = try await cloud.createUser("notes")
            let clock = OfflineEditOrderTests.Clock()
            var devices: [NoteDevice] = []
            var transports: [FaultInjectingTransport] = []
            for name in ["a", "b", "c"] {
                let directory = cloud.root.appendingPathComponent("restore/\(user)/\(name)")
                try await NoteDevice.setup(directory: directory, server: await cloud.baseURL, container: TestCloud.containerID,
                                           apiToken: await cloud.apiToken, signIn: .password(username: user, password: "password-\(user)", signUp: false))
                let transport = FaultInjectingTransport()
                transports.append(transport)
                devices.append(try await NoteDevice(directory: directory, transport: transport, now: { clock.now }))
            }
            try await devices[0].edit("the first text")
            try await devices[0].sync()
            clock.advance(1000)
            try await devices[0].edit("a mistake")
            try await devices[0].sync()
            for device in devices { try await device.sync() }
            #expect(try await devices[2].note()?.text == "a mistake")

            // Device c goes offline; device b restores the previous version.
            transports[2].setOffline(true)
            #expect(try await devices[1].restorePreviousVersion())
            for device in devices.prefix(2) { try await device.sync() }
            for device in devices.prefix(2) { #expect(try await device.note()?.text == "the first text") }
            transports[2].setOffline(false)
            try await devices[2].sync()
            #expect(try await devices[2].note()?.text == "the first text", "a device that was away fetches the restore")

            // An edit after the restore wins everywhere, as any newer edit does.
            clock.advance(1000)
            try await devices[2].edit("written after the restore")
            for _ in 0..<2 { for device in devices { try await device.sync() } }
            for device in devices {
                #expect(try await device.note()?.text == "written after the restore")
                #expect(try await device.store.hasUnsentChanges() == false)
            }
        }
    }
}
