import Foundation
import Testing
import StratusCore
@testable import StratusServer

@Suite struct SharingTests {
    static func record(_ name: String, parent: String? = nil, _ text: String = "x") -> Record {
        Record(recordName: name, recordType: "Item", fields: ["text": .string(text)], parent: parent.map(RecordPointer.init))
    }

    /// Alice's zone "Lists" with a shared list (root "list", child "item") and an unshared record.
    static func aliceWithSharedList(_ server: TestServer, participants: (Caller) -> [(String, SharePermission)]) async throws
        -> (alice: Caller, share: Record) {
        let alice = try await server.signUp("alice")
        try await alice.createZone("Lists")
        _ = try await alice.save([RecordOperation(.create, record("list")), RecordOperation(.create, record("item", parent: "list")),
                                  RecordOperation(.create, record("outside"))], zone: "Lists")
        let share = try await alice.share("list", zone: "Lists", participants: participants(alice))
        return (alice, share)
    }

    @Test func inviteResolveAcceptAndSeeOnlyTheSharedHierarchy() async throws {
        try await TestServer.with { server in
            let bob = try await server.signUp("bob")
            let (alice, share) = try await Self.aliceWithSharedList(server) { _ in [(bob.username!, .readWrite)] }
            let keys = try #require(share.shareKeys)
            #expect(keys.participants?.count == 2 && keys.owner?.type == .owner && keys.shareURL?.contains("/share/") == true)
            let guid = try #require(keys.shortGUID)
            #expect(try await alice.lookup(["list"], zone: "Lists", owner: nil).first?.record?.share?.recordName == "share")

            // Before accepting, Bob sees the invitation but not the zone.
            let preview = try #require(try await bob.shareMetadata(guid).value)
            #expect(preview.participantStatus == .invited && preview.participantPermission == .readWrite)
            #expect(preview.rootRecord?.recordName == "list" && preview.ownerIdentity.userRecordName == alice.userRecordName)
            #expect(try await bob.databaseChanges(database: .shared).zones.isEmpty)

            let accepted = try #require(try await bob.shareMetadata(guid, accept: true).value)
            #expect(accepted.participantStatus == .accepted)
            let zones = try await bob.databaseChanges(database: .shared).zones
            #expect(zones.map(\.zoneID) == [ZoneID(zoneName: "Lists", ownerRecordName: alice.userRecordName)])

            // Bob's zone changes hold the hierarchy and the share, not the unshared record.
            let request = ZoneChangesRequest(zones: [.init(zoneID: ZoneID(zoneName: "Lists", ownerRecordName: alice.userRecordName))])
            let changes = try await bob.post(bob.path(.shared, "changes/zone"), request).decode(ZoneChangesResponse.self)
            let names = Set(try #require(changes.zones.first?.changes).records.compactMap(\.recordName))
            #expect(names == ["list", "item", "share"])

            // Bob's new child lands in Alice's zone.
            let added = try await bob.modify([RecordOperation(.create, Self.record("bobs", parent: "list", "from bob"))], zone: "Lists",
                                             owner: alice.userRecordName)
            #expect(added.first?.record != nil)
            #expect(try await alice.lookup(["bobs"], zone: "Lists", owner: nil).first?.record?.created?.userRecordName == bob.userRecordName)
        }
    }

    @Test func removingStoppingAndLeavingTakeTheZoneAway() async throws {
        try await TestServer.with { server in
            let bob = try await server.signUp("bob")
            let carol = try await server.signUp("carol")
            var (alice, share) = try await Self.aliceWithSharedList(server) { _ in [(bob.username!, .readWrite), (carol.username!, .readOnly)] }
            let guid = try #require(share.shareKeys?.shortGUID)
            for user in [bob, carol] { _ = try await user.shareMetadata(guid, accept: true) }
            let bobToken = try await bob.databaseChanges(database: .shared).syncToken

            // Alice removes Bob: his shared database reports the zone gone, his reads fail at once.
            share = try #require(try await alice.lookup(["share"], zone: "Lists", owner: nil).first?.record)
            share.shareKeys = ShareKeys(participants: [ShareParticipant(userIdentity: UserIdentity(lookupInfo: LookupInfo(username: carol.username)),
                                                                        permission: .readOnly)])
            #expect(try await alice.modify([RecordOperation(.update, share)], zone: "Lists", owner: nil).first?.record != nil)
            let gone = try await bob.databaseChanges(token: bobToken, database: .shared).zones
            #expect(gone.count == 1 && gone.first?.deleted == true)
            #expect(try await bob.lookup(["list"], zone: "Lists", owner: alice.userRecordName).first?.error?.serverErrorCode == .zoneNotFound)
            #expect(try await bob.shareMetadata(guid, accept: true).error?.serverErrorCode == .accessDenied)
            #expect(try await bob.shareMetadata(guid).error?.serverErrorCode == .notFound, "a removed participant resolves nothing")
            var retitled = try #require(try await alice.lookup(["share"], zone: "Lists", owner: nil).first?.record)
            retitled.fields["cloudkit.title"] = .string("A new title")
            #expect(try await alice.modify([RecordOperation(.update, retitled)], zone: "Lists", owner: nil).first?.record != nil)
            let again = try await bob.shareMetadata(guid)
            #expect(again.error?.serverErrorCode == .notFound, "nor the share record as it changes: \(again)")

            // Carol leaves by deleting the share from her shared database.
            let left = try await carol.modify([RecordOperation(.forceDelete, Record(recordName: "share"))], zone: "Lists", owner: alice.userRecordName)
            #expect(left.first?.record?.deleted == true)
            #expect(try await carol.databaseChanges(database: .shared).zones.allSatisfy { $0.deleted == true })
            let participants = try await alice.lookup(["share"], zone: "Lists", owner: nil).first?.record?.shareKeys?.participants ?? []
            #expect(participants.first { $0.participantId == carol.userRecordName }?.acceptanceStatus == .removed)

            // Stopping sharing: the share goes and the root forgets it.
            #expect(try await alice.modify([RecordOperation(.forceDelete, Record(recordName: "share"))], zone: "Lists", owner: nil).first?.record != nil)
            #expect(try await alice.lookup(["list"], zone: "Lists", owner: nil).first?.record?.share == nil)
            #expect(try await bob.shareMetadata(guid).error?.serverErrorCode == .notFound)
        }
    }

    /// The way CloudKit clients share a record: the root, pointing at its new share, and the share,
    /// in one batch. The root's answer is the root as committed (it was rewritten once the share
    /// was stored), so the app's next update with the tag it was given succeeds.
    @Test func aRootSavedWithItsNewShareIsAnsweredAsCommitted() async throws {
        try await TestServer.with { server in
            let alice = try await server.signUp("alice")
            try await alice.createZone("Lists")
            let created = try await alice.save([RecordOperation(.create, Self.record("list"))], zone: "Lists")[0]
            var root = Self.record("list")
            root.recordChangeTag = created.recordChangeTag
            root.share = RecordPointer(recordName: "share")
            var share = Record(recordName: "share", recordType: ShareKeys.recordType, fields: ["cloudkit.title": .string("A list")])
            share.shareKeys = ShareKeys(publicPermission: SharePermission.none, participants: [])
            let answered = try await alice.modify([RecordOperation(.update, root), RecordOperation(.create, share)], zone: "Lists", owner: nil)
            let answeredRoot = try #require(answered[0].record, "\(answered)")
            let stored = try #require(try await alice.lookup(["list"], zone: "Lists", owner: nil).first?.record)
            #expect(answeredRoot.recordChangeTag == stored.recordChangeTag)
            #expect(answeredRoot.share?.recordName == "share" && stored.share?.recordName == "share")

            var next = Self.record("list", "renamed")
            next.recordChangeTag = answeredRoot.recordChangeTag
            let updated = try await alice.modify([RecordOperation(.update, next)], zone: "Lists", owner: nil)
            #expect(updated[0].error == nil, "\(updated)")
            #expect(updated[0].record?.share?.recordName == "share")
        }
    }

    /// A participant with write permission uploads an asset into the owner's zone and saves a record
    /// with it; the owner downloads the same bytes. A read-only participant may not upload.
    @Test func aParticipantWhoMayWriteUploadsAssetsIntoTheSharedZone() async throws {
        try await TestServer.with { server in
            let alice = try await server.signUp("alice")
            let bob = try await server.signUp("bob")
            let carol = try await server.signUp("carol")
            try await alice.createZone("Family")
            let share = try await alice.share(nil, zone: "Family", participants: [(bob.username!, .readWrite), (carol.username!, .readOnly)])
            for participant in [bob, carol] { _ = try await participant.shareMetadata(share.shareKeys!.shortGUID!, accept: true) }
            let zoneID = ZoneID(zoneName: "Family", ownerRecordName: alice.userRecordName)
            let request = AssetUploadRequest(zoneID: zoneID, tokens: [.init(recordName: "photo", recordType: "Item", fieldName: "file")])

            let refused = try await carol.post(carol.path(.shared, "assets/upload"), request)
            #expect(refused.status == 403 && refused.errorCode == .accessDenied, "\(refused.text)")

            let token = try #require(try await bob.post(bob.path(.shared, "assets/upload"), request).decode(AssetUploadResponse.self).tokens.first)
            let bytes = TestFile.bytes(count: 5000)
            let asset = try await Caller.post(bytes, to: token.url).decode(AssetUploadReceipt.self).singleFile
            let saved = try await bob.modify([RecordOperation(.create, Record(recordName: "photo", recordType: "Item", fields: ["file": .asset(asset)]))],
                                             zone: "Family", owner: alice.userRecordName)
            #expect(saved.first?.error == nil, "\(saved)")
            let fetched = try #require(try await alice.lookup(["photo"], zone: "Family", owner: nil).first?.record)
            guard case .asset(let stored)? = fetched.fields["file"], let url = stored.downloadURL else {
                Issue.record("no asset: \(fetched)")
                return
            }
            #expect(Array(try await alice.download(url).body) == bytes)
        }
    }

    /// A share URL opened in a browser: a page with the title (escaped), the owner and the app
    /// link; an unknown one a 404 page; the universal-link file lists the configured apps.
    @Test func aShareURLOpensALandingPage() async throws {
        try await TestServer.with(configure: {
            $0.shareAppURL = "notes://share/{shortGUID}"
            $0.appleAppIDs = ["ABCDE12345.dev.stratus.notes"]
        }) { server in
            let alice = try await server.signUp("alice")
            try await alice.createZone("Lists")
            _ = try await alice.save([RecordOperation(.create, Self.record("list"))], zone: "Lists")
            var share = Record(recordName: "share", recordType: ShareKeys.recordType, fields: [ShareKeys.titleField: .string("Groceries <b>&</b>")])
            share.shareKeys = ShareKeys(forRecord: RecordPointer(recordName: "list"), participants: [])
            _ = try await alice.save([RecordOperation(.create, share)], zone: "Lists")
            let stored = try #require(try await alice.lookup(["share"], zone: "Lists", owner: nil).first?.record?.shareKeys)
            let url = try #require(stored.shareURL)

            let page = try await server.anonymous.download(url, signedIn: false)
            #expect(page.status == 200 && page.headers["Content-Type"].first?.hasPrefix("text/html") == true)
            #expect(page.text.contains("Groceries &lt;b&gt;&amp;&lt;/b&gt;") && !page.text.contains("<b>"))
            #expect(page.text.contains("Shared by \(alice.username!)"))
            #expect(page.text.contains("href=\"notes://share/\(try #require(stored.shortGUID))\""))

            let missing = try await server.anonymous.download(server.endpoint.baseURL + "/share/nothing-here", signedIn: false)
            #expect(missing.status == 404 && missing.text.contains("not available"))

            let association = try await server.anonymous.download(server.endpoint.baseURL + "/.well-known/apple-app-site-association", signedIn: false)
            #expect(association.status == 200 && association.text.contains("ABCDE12345.dev.stratus.notes") && association.text.contains("/share/*"))
        }
    }

    @Test func deletingTheRootEndsItsShare() async throws {
        try await TestServer.with { server in
            let bob = try await server.signUp("bob")
            let (alice, share) = try await Self.aliceWithSharedList(server) { _ in [(bob.username!, .readWrite)] }
            let guid = try #require(share.shareKeys?.shortGUID)
            _ = try await bob.shareMetadata(guid, accept: true)
            _ = try await alice.save([RecordOperation(.forceDelete, Record(recordName: "list"))], zone: "Lists")
            #expect(try await alice.lookup(["share"], zone: "Lists", owner: nil).first?.error?.serverErrorCode == .notFound)
            #expect(try await bob.databaseChanges(database: .shared).zones.allSatisfy { $0.deleted == true })
            #expect(try await bob.shareMetadata(guid).error?.serverErrorCode == .notFound)
        }
    }

    @Test func publicLinksAdmitAnyoneAndDropPendingInvitations() async throws {
        try await TestServer.with { server in
            let bob = try await server.signUp("bob")
            let dave = try await server.signUp("dave")
            let frank = try await server.signUp("frank")
            var (alice, share) = try await Self.aliceWithSharedList(server) { _ in [(bob.username!, .readWrite), (dave.username!, .readOnly)] }
            let guid = try #require(share.shareKeys?.shortGUID)
            _ = try await bob.shareMetadata(guid, accept: true)
            #expect(try await frank.shareMetadata(guid).error?.serverErrorCode == .accessDenied)

            share = try #require(try await alice.lookup(["share"], zone: "Lists", owner: nil).first?.record)
            share.shareKeys = ShareKeys(publicPermission: .readOnly)
            let updated = try #require(try await alice.modify([RecordOperation(.update, share)], zone: "Lists", owner: nil).first?.record)
            let people = Set(updated.shareKeys?.participants?.compactMap(\.participantId) ?? [])
            #expect(people.contains(bob.userRecordName!) && !people.contains(dave.userRecordName!))   // pending Dave dropped

            let joined = try #require(try await frank.shareMetadata(guid, accept: true).value)
            #expect(joined.participantType == .publicUser && joined.participantPermission == .readOnly)
            #expect(try await frank.lookup(["item"], zone: "Lists", owner: alice.userRecordName).first?.record != nil)
        }
    }

    /// A `records/modify` body's operations are read beside the writer from their text; one that
    /// names a share, however its JSON spells the name, still has its batch planned as a share.
    @Test func aShareSpeltWithEscapesIsPlannedAsAShare() async throws {
        try await TestServer.with { server in
            let alice = try await server.signUp("alice")
            try await alice.createZone("Lists")
            _ = try await alice.save([RecordOperation(.create, Self.record("root"))], zone: "Lists")
            var share = Record(recordName: "share", recordType: ShareKeys.recordType)
            share.shareKeys = ShareKeys(forRecord: RecordPointer(recordName: "root"))
            let json = String(decoding: try JSONEncoder().encode(RecordsModifyRequest(operations: [RecordOperation(.create, share)],
                                                                                        zoneID: ZoneID(zoneName: "Lists"))), as: UTF8.self)
            let escaped = json.replacingOccurrences(of: #""cloudkit.share""#, with: #""cloudkit\u002eshare""#)
            #expect(escaped != json)
            let saved = try await alice.post(alice.path(.private, "records/modify"), json: escaped).decode(RecordsResponse.self).records
            #expect(saved.first?.record?.shareKeys?.shortGUID != nil)
            #expect(try await alice.lookup(["root"], zone: "Lists", owner: nil).first?.record?.share?.recordName == "share")
        }
    }

    @Test func aShareHasAtMostOneHundredParticipantsAndNeedsACustomZone() async throws {
        try await TestServer.with { server in
            let alice = try await server.signUp("alice")
            _ = try await alice.save([RecordOperation(.create, Self.record("root"))])
            var defaultZoneShare = Record(recordName: "s", recordType: "cloudkit.share")
            defaultZoneShare.shareKeys = ShareKeys(forRecord: RecordPointer(recordName: "root"))
            let inDefaultZone = try await alice.modify([RecordOperation(.create, defaultZoneShare)], zone: ZoneID.defaultZoneName, owner: nil)
            #expect(inDefaultZone.first?.error?.serverErrorCode == .badRequest)

            try await alice.createZone("Big")
            _ = try await alice.save([RecordOperation(.create, Self.record("root"))], zone: "Big")
            var users: [(String, SharePermission)] = []
            for index in 0..<100 { users.append((try await server.signUp("u\(index)").username!, .readOnly)) }
            await #expect(throws: TestFailure.self) { _ = try await alice.share("root", zone: "Big", participants: users) }
            let ok = try await alice.share("root", zone: "Big", participants: Array(users.prefix(99)))
            #expect(ok.shareKeys?.participants?.count == 100)
        }
    }
}

@Suite struct UserDiscoveryTests {
    @Test func onlyDiscoverableUsersAreFoundAndEmailsInvite() async throws {
        try await TestServer.with { server in
            let signup = "/auth/1/\(TestServer.containerID)/development/signup"
            let found = Credentials(username: "findme", password: "password-1", email: "Find.Me@example.com", discoverable: true)
            let hidden = Credentials(username: "hidden", password: "password-2", email: "hidden@example.com")
            let findMe = try await server.anonymous.post(signup, found).decode(SignInResponse.self)
            let hiddenUser = try await server.anonymous.post(signup, hidden).decode(SignInResponse.self)
            let bad = try await server.anonymous.post(signup, Credentials(username: "x", password: "password-3", email: "not-an-email"))
            #expect(bad.errorCode == .badRequest)
            // Both proved their addresses (EmailVerificationTests mails the codes; here they are marked directly).
            try await server.server.services.storage.write { transaction in
                for user in [findMe.userRecordName, hiddenUser.userRecordName] { try await transaction.markEmailVerified(user: user) }
            }

            let alice = try await server.signUp("alice")
            let request = UserDiscoveryRequest(lookupInfos: [LookupInfo(emailAddress: "find.me@example.com"), LookupInfo(emailAddress: "hidden@example.com"),
                                                             LookupInfo(username: "hidden"), LookupInfo(username: "findme")])
            let users = try await alice.post(alice.path(.public, "users/discover"), request).decode(UserIdentitiesResponse.self).users
            #expect(users.map(\.userRecordName) == [findMe.userRecordName, findMe.userRecordName])
            let caller = try await alice.get(alice.path(.public, "users/caller")).decode(UserIdentitiesResponse.self).users
            #expect(caller.first?.userRecordName == alice.userRecordName && caller.first?.lookupInfo?.username == alice.username)

            // The owner may invite by email address, discoverable or not.
            try await alice.createZone("Z")
            _ = try await alice.save([RecordOperation(.create, SharingTests.record("root"))], zone: "Z")
            var share = Record(recordName: "s", recordType: ShareKeys.recordType)
            share.shareKeys = ShareKeys(forRecord: RecordPointer(recordName: "root"), participants: [
                ShareParticipant(userIdentity: UserIdentity(lookupInfo: LookupInfo(emailAddress: "HIDDEN@example.com")), permission: .readOnly),
            ])
            let saved = try #require(try await alice.modify([RecordOperation(.create, share)], zone: "Z", owner: nil).first?.record)
            #expect(saved.shareKeys?.participants?.contains { $0.participantId == hiddenUser.userRecordName } == true)
        }
    }
}
