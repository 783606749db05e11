import Foundation
import Observation
import Synchronization
import Testing
import StratusClient
import StratusSync
import StratusTesting

@Suite struct SyncEnginePolicyTests {
    static let zone = ZoneID(zoneName: "note-zone")

    static func item(_ name: String, _ fields: [String: FieldValue]) -> CloudRecord {
        CloudRecord(recordType: "item", recordID: RecordID(recordName: name, zoneID: zone), fields: fields)
    }

    @Test func automaticSyncCoalescesKeystrokes() async throws {
        try await TestCloud.with { cloud in
            let user = try await cloud.createUser("alice")
            let phone = try await cloud.device("phone", of: user) { configuration in
                configuration.automaticallySync = true
                configuration.sendDelay = .milliseconds(200)
                configuration.pollInterval = nil
            }
            try await phone.container.privateCloudDatabase.save(zone: Self.zone)
            try await phone.sync()
            await phone.engine.start()
            for index in 0..<10 {
                try await phone.save(Self.item("note", ["text": .string(String(repeating: "a", count: index + 1))]))
            }
            try await eventually("the keystrokes are sent") { try await phone.engine.snapshot().pendingRecordChanges.isEmpty }
            // Ten edits within the send delay went out in one records/modify.
            #expect(phone.transport.requestsSent(to: "records/modify") == 1)
            let laptop = try await cloud.device("laptop", of: user)
            try await laptop.sync()
            #expect(await laptop.record(RecordID(recordName: "note", zoneID: Self.zone))?.string("text") == String(repeating: "a", count: 10))
            await phone.engine.stop()
        }
    }

    @Test func aRejectedRecordIsSetAsideWithoutBlockingTheRest() async throws {
        try await TestCloud.with { cloud in
            let user = try await cloud.createUser("alice")
            let phone = try await cloud.device("phone", of: user)
            try await phone.save(Self.item("good", ["text": .string("fine")]))
            try await phone.save(Self.item("too-big", ["text": .string(String(repeating: "x", count: 1_100_000))]))
            try await phone.save(Self.item("also-good", ["text": .string("fine too")]))
            try await phone.sync()
            let snapshot = try await phone.engine.snapshot()
            #expect(snapshot.pendingRecordChanges.isEmpty)
            #expect(snapshot.setAsideChanges.map(\.change.recordID.recordName) == ["too-big"])
            #expect(snapshot.setAsideChanges.first?.reason.contains("limitExceeded") == true)
            let laptop = try await cloud.device("laptop", of: user)
            try await laptop.sync()
            #expect(Set(await laptop.records().keys.map(\.recordName)) == ["good", "also-good"])
        }
    }

    /// `retry` sends a refused change again: refused again while the record is unchanged (set
    /// aside again, with the reason), sent once the app has made it acceptable.
    @Test func retryingARefusedChangeSendsItAgain() async throws {
        try await TestCloud.with { cloud in
            let user = try await cloud.createUser("alice")
            let phone = try await cloud.device("phone", of: user)
            let id = RecordID(recordName: "too-big", zoneID: Self.zone)
            try await phone.save(Self.item("too-big", ["text": .string(String(repeating: "x", count: 1_100_000))]))
            try await phone.sync()
            #expect(try await phone.engine.snapshot().setAsideChanges.map(\.change.recordID) == [id])

            try await phone.engine.resolveSetAside(id, .retry)
            #expect(try await phone.engine.snapshot().pendingRecordChanges.map(\.recordID) == [id])
            try await phone.sync()
            let again = try await phone.engine.snapshot()
            #expect(again.pendingRecordChanges.isEmpty)
            #expect(again.setAsideChanges.map(\.change.recordID) == [id])
            #expect(again.setAsideChanges.first?.reason.contains("limitExceeded") == true)

            // The app shortens the text in place (no new change queued) and retries.
            var shorter = try #require(await phone.record(id))
            shorter["text"] = .string("short now")
            await phone.store.put(shorter)
            try await phone.engine.resolveSetAside(id, .retry)
            try await phone.sync()
            let settled = try await phone.engine.snapshot()
            #expect(settled.setAsideChanges.isEmpty)
            #expect(settled.pendingRecordChanges.isEmpty)
            let laptop = try await cloud.device("laptop", of: user)
            try await laptop.sync()
            #expect(await laptop.record(id)?.string("text") == "short now")
        }
    }

    @Test func signingOutHaltsUntilResumed() async throws {
        try await TestCloud.with { cloud in
            let user = try await cloud.createUser("alice")
            let phone = try await cloud.device("phone", of: user)
            try await phone.sync()
            let token = try #require(await phone.container.webAuthToken)
            try await phone.container.signOut()
            try await phone.save(Self.item("n", ["text": .string("kept")]))
            let error = try await #require(throws: CloudError.self) { try await phone.engine.syncNow() }
            #expect(error.code == .notAuthenticated)
            guard case .halted = try await phone.engine.snapshot().status else {
                Issue.record("the engine should be halted")
                return
            }
            // Still halted: nothing is sent until the app resumes after signing in again.
            await #expect(throws: CloudError.self) { try await phone.engine.syncNow() }
            try await phone.container.signIn(username: user, password: "password-\(user)")
            #expect(await phone.container.webAuthToken != token)
            try await phone.engine.resume()
            try await phone.sync()
            #expect(try await phone.engine.snapshot().pendingRecordChanges.isEmpty)
        }
    }

    /// The engine's observable status follows what it does: Observation reports each change, a
    /// halt shows its error, and a relaunched engine starts out halted, as it left off.
    @Test func theObservableStatusFollowsTheEngine() async throws {
        try await TestCloud.with { cloud in
            let user = try await cloud.createUser("alice")
            let phone = try await cloud.device("phone", of: user)
            let status = await phone.engine.status
            #expect(await MainActor.run { status.lastSuccessfulSync == nil && !status.isSyncing && status.lastError == nil })

            let observed = Mutex(false)
            await MainActor.run {
                withObservationTracking { _ = status.lastSuccessfulSync } onChange: { observed.withLock { $0 = true } }
            }
            try await phone.save(Self.item("n", ["text": "kept"]))
            try await phone.sync()
            try await eventually("the sync is observed") { observed.withLock { $0 } }
            try await eventually("the status shows the sync") {
                await MainActor.run { status.lastSuccessfulSync != nil && !status.isSyncing }
            }

            try await phone.container.signOut()
            try await phone.save(Self.item("m", ["text": "waiting"]))
            await #expect(throws: CloudError.self) { try await phone.engine.syncNow() }
            try await eventually("the status shows the halt") { await MainActor.run { status.lastError?.code == .notAuthenticated } }

            try await phone.restart()
            let relaunched = await phone.engine.status
            #expect(await MainActor.run { relaunched.lastError?.code == .notAuthenticated && relaunched.lastSuccessfulSync != nil })

            try await phone.container.signIn(username: user, password: "password-\(user)")
            try await phone.engine.resume()
            try await phone.sync()
            try await eventually("the status shows the recovery") { await MainActor.run { relaunched.lastError == nil } }
        }
    }

    @Test func aZoneDeletedElsewhereDisappearsLocally() async throws {
        try await TestCloud.with { cloud in
            let user = try await cloud.createUser("alice")
            let phone = try await cloud.device("phone", of: user)
            let laptop = try await cloud.device("laptop", of: user)
            try await phone.save(Self.item("a", ["text": .string("a")]))
            try await phone.sync()
            try await laptop.sync()
            #expect(await laptop.records().count == 1)
            try await phone.engine.add(pendingDatabaseChanges: [.deleteZone(Self.zone)])
            try await phone.sync()
            try await laptop.sync()
            #expect(await laptop.records().isEmpty)
            #expect(try await laptop.engine.snapshot().tokens.keys.allSatisfy { !$0.contains("note-zone") })
        }
    }

    @Test func fieldMergeKeepsEditsOfDifferentFields() async throws {
        try await TestCloud.with { cloud in
            let user = try await cloud.createUser("alice")
            let merge: @Sendable (inout SyncEngine.Configuration) -> Void = { $0.conflictResolvers["item"] = .mergeFields }
            let phone = try await cloud.device("phone", of: user, configure: merge)
            let laptop = try await cloud.device("laptop", of: user, configure: merge)
            let id = RecordID(recordName: "card", zoneID: Self.zone)
            try await phone.save(Self.item("card", ["title": .string("Card"), "color": .string("red")]))
            try await phone.sync()
            try await laptop.sync()

            try await phone.save(Self.item("card", ["title": .string("Renamed"), "color": .string("red")]))
            try await laptop.save(Self.item("card", ["title": .string("Card"), "color": .string("blue")]))
            try await phone.sync()
            try await laptop.sync()
            try await phone.sync()
            for device in [phone, laptop] {
                let card = await device.record(id)
                #expect(card?.string("title") == "Renamed" && card?.string("color") == "blue", "\(device.name)")
            }
        }
    }
}
