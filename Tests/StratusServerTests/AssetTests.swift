import Foundation
import Testing
import StratusCore
@testable import StratusServer

@Suite struct AssetTests {
    /// The asset in a fetched record's field.
    static func asset(_ record: Record?, _ field: String = "file") throws -> Asset {
        guard case .asset(let asset)?? = record?.fields[field] else { throw TestFailure("no asset in field '\(field)'") }
        return asset
    }

    @Test func twentyMegabyteRoundTrip() async throws {
        try await TestServer.with { server in
            let alice = try await server.signUp("alice")
            let bytes = TestFile.bytes(count: 20 * 1024 * 1024)
            let uploaded = try await alice.upload(bytes, record: "doc")
            #expect(uploaded.fileChecksum == TestFile.checksum(bytes))
            #expect(uploaded.size == Int64(bytes.count))
            #expect(uploaded.receipt != nil)

            let saved = try await alice.save([.create("doc", ["file": .asset(uploaded), "title": .string("big")])])
            let savedAsset = try Self.asset(saved.first)
            #expect(savedAsset.receipt == nil && savedAsset.fileChecksum == uploaded.fileChecksum)

            let fetched = try Self.asset(try await alice.lookup(["doc"]).first?.record)
            let url = try #require(fetched.downloadURL)
            let download = try await alice.download(url)
            #expect(download.status == 200)
            #expect(download.body.count == bytes.count)
            #expect(TestFile.checksum(download.body) == uploaded.fileChecksum)

            // Change feeds and queries carry download URLs too; the wire type is ASSETID.
            let changed = try await alice.allZoneChanges(ZoneID.defaultZoneName).records
            #expect(try Self.asset(changed.first { $0.recordName == "doc" }).downloadURL != nil)
            let raw = try await alice.post(alice.path(.private, "records/lookup"), json: #"{"records":[{"recordName":"doc"}]}"#)
            #expect(raw.text.contains(#""type":"ASSETID""#))
            #expect(try await TestFile.storedBlobs(in: server.server.configuration.dataDirectory).count == 1)
        }
    }

    @Test func identicalUploadsShareOneFile() async throws {
        try await TestServer.with { server in
            let alice = try await server.signUp("alice")
            let bytes = TestFile.bytes(count: 300_000, seed: 7)
            let first = try await alice.upload(bytes, record: "a")
            let second = try await alice.upload(bytes, record: "b")
            #expect(first.fileChecksum == second.fileChecksum)
            #expect(first.receipt != second.receipt)
            _ = try await alice.save([.create("a", ["file": .asset(first)]), .create("b", ["file": .asset(second)])])
            #expect(try await TestFile.storedBlobs(in: server.server.configuration.dataDirectory).count == 1)

            // Deleting one record keeps the file for the other.
            _ = try await alice.save([RecordOperation(.forceDelete, Record(recordName: "a"))])
            await server.advanceClock(by: .seconds(48 * 3600))
            let remaining = try Self.asset(try await alice.lookup(["b"]).first?.record)
            #expect(try await alice.download(try #require(remaining.downloadURL)).body.count == bytes.count)
        }
    }

    @Test func unreferencedUploadsAndFilesAreCollected() async throws {
        try await TestServer.with { server in
            let alice = try await server.signUp("alice")
            let directory = server.server.configuration.dataDirectory
            let orphan = try await alice.upload(TestFile.bytes(count: 10_000, seed: 1))
            let kept = try await alice.upload(TestFile.bytes(count: 10_000, seed: 2), record: "kept")
            _ = try await alice.save([.create("kept", ["file": .asset(kept)])])

            // Within the grace period nothing goes.
            var collected = try await server.server.services.assets.collectGarbage()
            #expect(collected.uploads == 0 && collected.files == 0)
            #expect(try await TestFile.storedBlobs(in: directory).count == 2)

            server.clock.advance(by: .seconds(25 * 3600))
            collected = try await server.server.services.assets.collectGarbage()
            #expect(collected.uploads == 2 && collected.files == 1)
            #expect(try await TestFile.storedBlobs(in: directory).count == 1)
            let late = try await alice.modify([.create("late", ["file": .asset(orphan)])])
            #expect(late.first?.error?.serverErrorCode == .badRequest)

            // The record still holds its file; once it is deleted, its history keeps the file
            // (downloadable by whoever may see the version); when that history goes, so does the file.
            let fetched = try Self.asset(try await alice.lookup(["kept"]).first?.record)
            #expect(try await alice.download(try #require(fetched.downloadURL)).status == 200)
            _ = try await alice.save([RecordOperation(.forceDelete, Record(recordName: "kept"))])
            collected = try await server.server.services.assets.collectGarbage()
            #expect(collected.files == 0)
            #expect(try await alice.download(try #require(fetched.downloadURL)).status == 200)
            let purge = try await alice.post(alice.path(.private, "records/history/purge"), RecordHistoryPurgeRequest(recordName: "kept"))
            #expect(try purge.decode(RecordHistoryPurgeResponse.self).purgedVersions == 1)
            collected = try await server.server.services.assets.collectGarbage()
            #expect(collected.files == 1)
            #expect(try await TestFile.storedBlobs(in: directory).isEmpty)
            #expect(try await alice.download(try #require(fetched.downloadURL)).errorCode == .notFound)
        }
    }

    /// As Apple's pre-signed URLs: a plain GET with no credentials downloads until the URL
    /// expires; a forged or altered URL does not.
    @Test func aSignedDownloadURLIsTheCapability() async throws {
        try await TestServer.with { server in
            let alice = try await server.signUp("alice")
            let bytes = TestFile.bytes(count: 5000)
            let uploaded = try await alice.upload(bytes, record: "shared")
            _ = try await alice.save([.create("shared", ["file": .asset(uploaded)])])
            let url = try #require(try Self.asset(try await alice.lookup(["shared"]).first?.record).downloadURL)
            let plain = try await alice.download(url, signedIn: false)
            #expect(plain.status == 200 && Array(plain.body) == bytes)
            var tampered = url
            tampered.insert("x", at: tampered.index(tampered.endIndex, offsetBy: -5))
            #expect(try await alice.download(tampered, signedIn: false).errorCode == .accessDenied)
        }
    }

    @Test func downloadsCanBeBoundToTheirUser() async throws {
        try await TestServer.with(configure: { $0.bindDownloadURLsToUser = true }) { server in
            let alice = try await server.signUp("alice")
            let bob = try await server.signUp("bob")
            let uploaded = try await alice.upload(TestFile.bytes(count: 5000), record: "secret")
            _ = try await alice.save([.create("secret", ["file": .asset(uploaded)])])
            let url = try #require(try Self.asset(try await alice.lookup(["secret"]).first?.record).downloadURL)

            #expect(try await alice.download(url).status == 200)
            #expect(try await bob.download(url).errorCode == .accessDenied)
            #expect(try await alice.download(url, signedIn: false).errorCode == .authenticationRequired)
            var tampered = url
            tampered.insert("x", at: tampered.index(tampered.endIndex, offsetBy: -5))
            #expect(try await alice.download(tampered).errorCode == .accessDenied)

            // Bob cannot take Alice's receipt into his own record either.
            let stolen = try await bob.modify([.create("mine", ["file": .asset(uploaded)])])
            #expect(stolen.first?.error?.serverErrorCode == .badRequest)
        }
    }

    /// A download URL names the user it was issued to, and stops working as soon as that user may
    /// no longer read the record: here a participant removed from the share, whose URL was a
    /// plain GET a moment before.
    @Test func aDownloadURLEndsWithItsUsersAccess() async throws {
        try await TestServer.with { server in
            let bob = try await server.signUp("bob")
            var (alice, share) = try await SharingTests.aliceWithSharedList(server) { _ in [(bob.username!, .readOnly)] }
            _ = try await bob.shareMetadata(try #require(share.shareKeys?.shortGUID), accept: true)
            let token = try await alice.uploadURL(record: "photo", zone: "Lists")
            let uploaded = try await Caller.post(TestFile.bytes(count: 3000), to: token.url).decode(AssetUploadReceipt.self).singleFile
            var photo = SharingTests.record("photo", parent: "list")
            photo.fields["file"] = .asset(uploaded)
            #expect(try await alice.save([RecordOperation(.create, photo)], zone: "Lists").first?.recordName == "photo")

            let url = try #require(try Self.asset(try await bob.lookup(["photo"], zone: "Lists", owner: alice.userRecordName).first?.record).downloadURL)
            #expect(try await bob.download(url, signedIn: false).status == 200, "the participant's URL works")

            share = try #require(try await alice.lookup(["share"], zone: "Lists", owner: nil).first?.record)
            share.shareKeys = ShareKeys(participants: [])
            #expect(try await alice.modify([RecordOperation(.update, share)], zone: "Lists", owner: nil).first?.record != nil)
            let after = try await bob.download(url, signedIn: false)
            #expect(after.errorCode == .accessDenied, "removed, the participant's URL no longer works: \(after.text)")
            let owners = try #require(try Self.asset(try await alice.lookup(["photo"], zone: "Lists", owner: nil).first?.record).downloadURL)
            #expect(try await alice.download(owners, signedIn: false).status == 200, "the owner's does")
        }
    }

    @Test func urlsExpire() async throws {
        try await TestServer.with(configure: { $0.assetURLLifetime = .seconds(60) }) { server in
            let alice = try await server.signUp("alice")
            let token = try await alice.uploadURL(record: "r")
            let uploaded = try await Caller.post(TestFile.bytes(count: 100), to: token.url).decode(AssetUploadReceipt.self).singleFile
            _ = try await alice.save([.create("r", ["file": .asset(uploaded)])])
            let url = try #require(try Self.asset(try await alice.lookup(["r"]).first?.record).downloadURL)
            let unused = try await alice.uploadURL(record: "s")
            #expect(try await alice.download(url).status == 200)
            await server.advanceClock(by: .seconds(61))

            #expect(try await alice.download(url).errorCode == .accessDenied)
            let late = try await Caller.post(TestFile.bytes(count: 100, seed: 9), to: unused.url)
            #expect(late.errorCode == .accessDenied)
            #expect(late.error?.reason.contains("expired") == true)
            #expect(try await TestFile.storedBlobs(in: server.server.configuration.dataDirectory).count == 1)
            // A new fetch gives a new, valid URL.
            let fresh = try #require(try Self.asset(try await alice.lookup(["r"]).first?.record).downloadURL)
            #expect(try await alice.download(fresh).status == 200)
        }
    }

    @Test func badUploadsStoreNothing() async throws {
        try await TestServer.with(configure: { $0.maxAssetBytes = 1024 * 1024 }) { server in
            let alice = try await server.signUp("alice")
            let directory = server.server.configuration.dataDirectory

            let tooBig = try await Caller.post(TestFile.bytes(count: 1024 * 1024 + 1), to: try await alice.uploadURL().url)
            #expect(tooBig.status == 413)
            #expect(tooBig.errorCode == .limitExceeded)

            let bytes = TestFile.bytes(count: 1000)
            let wrongDigest = "sha-256=:\(TestFile.checksum(TestFile.bytes(count: 1000, seed: 3))):"
            let mismatch = try await Caller.post(bytes, to: try await alice.uploadURL().url, headers: [("Content-Digest", wrongDigest)])
            #expect(mismatch.errorCode == .badRequest)
            #expect(mismatch.error?.reason.contains("checksum") == true)
            let matching = try await Caller.post(bytes, to: try await alice.uploadURL().url,
                                                 headers: [("Content-Digest", "sha-256=:\(TestFile.checksum(bytes)):")])
            #expect(matching.status == 200)

            let forged = try await Caller.post(bytes, to: server.endpoint.baseURL + "/assets/1/upload/bm90LWEtZ3JhbnQ.c2ln")
            #expect(forged.errorCode == .accessDenied)
            #expect(try await TestFile.storedBlobs(in: directory).count == 1)
            #expect(TestFile.incoming(in: directory).isEmpty)
        }
    }

    @Test func recordsWithBadAssetsAreRefused() async throws {
        try await TestServer.with { server in
            let alice = try await server.signUp("alice")
            let uploaded = try await alice.upload(TestFile.bytes(count: 2000))
            var wrongChecksum = uploaded
            wrongChecksum.fileChecksum = TestFile.checksum([1, 2, 3])
            var wrongSize = uploaded
            wrongSize.size = 1
            let noReceipt = Asset(fileChecksum: uploaded.fileChecksum, size: uploaded.size)
            let unknownReceipt = Asset(fileChecksum: uploaded.fileChecksum, size: uploaded.size, receipt: "0123")
            for (name, asset, reason) in [("a", wrongChecksum, "fileChecksum"), ("b", wrongSize, "size"),
                                          ("c", noReceipt, "receipt"), ("d", unknownReceipt, "receipt")] {
                let result = try await alice.modify([.create(name, ["file": .asset(asset)])])
                #expect(result.first?.error?.serverErrorCode == .badRequest)
                #expect(result.first?.error?.reason.contains(reason) == true, "\(name)")
            }
            #expect(try await alice.lookup(["a", "b", "c", "d"]).allSatisfy { $0.error?.serverErrorCode == .notFound })
        }
    }

    @Test func fetchedAssetsCanBeSavedBackAndReused() async throws {
        try await TestServer.with { server in
            let alice = try await server.signUp("alice")
            let first = try await alice.upload(TestFile.bytes(count: 4000, seed: 1))
            let second = try await alice.upload(TestFile.bytes(count: 4000, seed: 2))
            _ = try await alice.save([.create("album", ["cover": .asset(first), "pages": .list(.asset, [.asset(first), .asset(second)])])])

            // A fetched record, saved back whole (ASSETID values with downloadURL, no receipt).
            var record = try #require(try await alice.lookup(["album"]).first?.record)
            record.fields["title"] = .string("Holiday")
            let replaced = try await alice.modify([RecordOperation(.update, record)])
            #expect(replaced.first?.record != nil, "\(String(describing: replaced.first?.error))")

            // assets/rereference gives a receipt to put the same file in another record.
            let request = AssetRereferenceRequest(assets: [.init(recordName: "album", fieldName: "cover")])
            let reused = try await alice.post(alice.path(.private, "assets/rereference"), request).decode(AssetRereferenceResponse.self).assets
            #expect(reused.first?.fileChecksum == first.fileChecksum && reused.first?.receipt != nil)
            _ = try await alice.save([.create("copy", ["file": .asset(try #require(reused.first))])])
            let copy = try Self.asset(try await alice.lookup(["copy"]).first?.record)
            #expect(TestFile.checksum(try await alice.download(try #require(copy.downloadURL)).body) == first.fileChecksum)
            #expect(try await TestFile.storedBlobs(in: server.server.configuration.dataDirectory).count == 2)
        }
    }

    @Test func publicAssetsDownloadWithoutAUser() async throws {
        try await TestServer.with { server in
            let alice = try await server.signUp("alice")
            let uploaded = try await alice.upload(TestFile.bytes(count: 1234), record: "poster", database: .public)
            _ = try await alice.save([.create("poster", ["file": .asset(uploaded)])], database: .public)
            let fetched = try await server.anonymous.lookup(["poster"], database: .public)
            let url = try #require(try Self.asset(fetched.first?.record).downloadURL)
            #expect(try await server.anonymous.download(url).body.count == 1234)
        }
    }
}
