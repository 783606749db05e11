import AsyncHTTPClient
import Foundation
import Testing
import StratusCore
@testable import StratusServer

/// The shared database: Alice's zone holds a shared list with an item, and a record outside the
/// share; five callers.
extension AuthorizationMatrixTests {
    /// The records: the share's root, a record in its hierarchy, a record outside it.
    static let sharedRecords = ["list", "item", "outside"]

    /// The callers: the owner, participants with each permission, a participant the owner removed,
    /// and a stranger who holds the share's URL.
    enum SharedCaller: String, CaseIterable {
        case owner, readOnly, readWrite, removed, stranger

        func canRead(_ record: String) -> Bool {
            switch self {
            case .owner: true
            case .readOnly, .readWrite: record != "outside"
            case .removed, .stranger: false
            }
        }

        var writes: Bool { self == .owner || self == .readWrite }
    }

    @Test(.timeLimit(.minutes(5)))
    func sharedDatabase() async throws {
        try await TestServer.with(configure: { $0.courierWait = .milliseconds(300) }) { server in
            var callers: [SharedCaller: Caller] = [:]
            for kind in SharedCaller.allCases { callers[kind] = try await server.signUp(kind.rawValue) }
            let alice = callers[.owner]!
            let owner = try #require(alice.userRecordName)
            try await alice.createZone("Lists")
            var secrets: [String: Secrets] = [:]
            for (index, name) in Self.sharedRecords.enumerated() {
                let file = TestFile.bytes(count: 2048, seed: UInt64(200 + index))
                let asset = try await alice.upload(file, record: name)
                let text = "\(name)A\(UUID().uuidString.prefix(8))"
                _ = try await alice.save([RecordOperation(.create, Record(recordName: name, recordType: "Item", fields: ["text": .string(text), "file": .asset(asset)],
                                                                           parent: name == "item" ? RecordPointer(recordName: "list") : nil))], zone: "Lists")
                secrets[name] = Secrets(texts: [text], file: file)
            }
            let share = try await alice.share("list", zone: "Lists", participants: [
                (callers[.readOnly]!.username!, .readOnly), (callers[.readWrite]!.username!, .readWrite), (callers[.removed]!.username!, .readWrite),
            ])
            let guid = try #require(share.shareKeys?.shortGUID)
            for kind in [SharedCaller.readOnly, .readWrite, .removed] { _ = try await callers[kind]!.shareMetadata(guid, accept: true) }
            var kept = try #require(try await alice.lookup(["share"], zone: "Lists", owner: nil).first?.record)
            kept.shareKeys = ShareKeys(participants: [SharedCaller.readOnly, .readWrite].map { kind in
                ShareParticipant(userIdentity: UserIdentity(lookupInfo: LookupInfo(username: callers[kind]!.username)),
                                 permission: kind == .readOnly ? .readOnly : .readWrite)
            })
            #expect(try await alice.modify([RecordOperation(.update, kept)], zone: "Lists", owner: nil).first?.record != nil)

            // Notifications: the owner's zone subscription, the others' shared-database subscriptions;
            // database and zone notifications carry no record, so none carries a secret.
            var couriers: [SharedCaller: String] = [:]
            for kind in SharedCaller.allCases {
                let caller = callers[kind]!
                let subscription = kind == .owner
                    ? CloudSubscription(subscriptionID: "s", subscriptionType: .zone, zoneID: ZoneID(zoneName: "Lists"))
                    : CloudSubscription(subscriptionID: "s", subscriptionType: .database)
                _ = try await caller.post(caller.path(kind == .owner ? .private : .shared, "subscriptions/modify"),
                                          SubscriptionsModifyRequest(operations: [.init(.create, subscription)]))
                couriers[kind] = try await caller.post("/database/1/\(TestServer.containerID)/development/tokens/create", TokenCreateRequest())
                    .decode(TokenCreateResponse.self).webcourierURL
                _ = try await Self.drain(couriers[kind]!, until: "\"met\"")
            }
            for name in Self.sharedRecords {
                let text = "\(name)B\(UUID().uuidString.prefix(8))"
                _ = try await alice.save([RecordOperation(.forceUpdate, Record(recordName: name, recordType: "Item", fields: ["text": .string(text)]))], zone: "Lists")
                secrets[name]!.texts.append(text)
            }
            let final = secrets
            for kind in SharedCaller.allCases {
                let heard = try await Self.pending(couriers[kind]!)
                for name in Self.sharedRecords {
                    Self.check(HTTPResult(status: 200, body: Data(heard.joined(separator: "\n").utf8), headers: [:]), final[name]!,
                               canRead: false, shows: false, "courier notifications to \(kind) of \(name)")
                }
                if kind.canRead("item") { #expect(!heard.isEmpty, "\(kind) heard of the changes to the share") }
            }

            // Every request route, by every caller, about every record.
            let seen = SeenURLs()
            let zone = Self.sharedZoneID(owner: owner)
            for kind in SharedCaller.allCases {
                let principal = Principal(name: kind.rawValue, caller: callers[kind]!)
                let database: DatabaseScope = kind == .owner ? .private : .shared
                let zoneID = kind == .owner ? #"{"zoneName":"Lists"}"# : zone
                for name in Self.sharedRecords {
                    let record = final[name]!
                    let canRead = kind.canRead(name)
                    func probe(_ endpoint: String, _ json: String, in scope: DatabaseScope = database, shows: Bool, _ what: String) async throws -> HTTPResult {
                        let result = try await principal.post(scope, endpoint, json)
                        Self.check(result, record, canRead: canRead, shows: shows, "\(kind) \(what) of \(name)")
                        await seen.add(Self.downloadURLs(in: result), for: kind.rawValue)
                        return result
                    }
                    _ = try await probe("records/lookup", #"{"zoneID":\#(zoneID),"records":[{"recordName":"\#(name)"}]}"#, shows: true, "lookup")
                    _ = try await probe("records/query", #"{"zoneID":\#(zoneID),"query":{"recordType":"Item"}}"#, shows: true, "query")
                    _ = try await probe("records/changes", #"{"zoneID":\#(zoneID)}"#, shows: true, "records/changes")
                    _ = try await probe("changes/zone", #"{"zones":[{"zoneID":\#(zoneID)}]}"#, shows: true, "changes/zone")
                    _ = try await probe("records/modify", #"""
                        {"zoneID":\#(zoneID),"atomic":false,"operations":[{"operationType":"update","record":{"recordName":"\#(name)","recordType":"Item","recordChangeTag":"made-up","fields":{"text":{"value":"x"}}}}]}
                        """#, shows: canRead && kind.writes, "conflict answer")
                    _ = try await probe("records/modify", #"""
                        {"zoneID":\#(zoneID),"atomic":false,"operations":[{"operationType":"create","record":{"recordName":"\#(name)","recordType":"Item","fields":{}}}]}
                        """#, shows: canRead && kind.writes, "EXISTS answer")
                    _ = try await probe("records/history", #"{"zoneID":\#(zoneID),"recordName":"\#(name)"}"#, shows: canRead && kind.writes, "records/history")
                    _ = try await probe("records/deleted", #"{"zoneID":\#(zoneID)}"#, shows: false, "records/deleted")
                    _ = try await probe("records/restore", #"{"zoneID":\#(zoneID),"operations":[{"recordName":"\#(name)","recordChangeTag":"1"}]}"#,
                                        shows: false, "records/restore")
                    let receipt = try await probe("assets/rereference", #"{"zoneID":\#(zoneID),"assets":[{"recordName":"\#(name)","fieldName":"file"}]}"#,
                                                  shows: false, "assets/rereference")
                    if kind == .owner { #expect(receipt.text.contains("\"receipt\""), "the owner's rereference of \(name): \(receipt.text)") }
                    // A participant's record goes into the share; the owner's stays outside it, so
                    // that it gives no participant a file they could not read before.
                    let parent = kind == .owner ? "" : #""parent":{"recordName":"list"},"#
                    let attached = try await probe("records/modify", #"""
                        {"zoneID":\#(zoneID),"atomic":false,"operations":[{"operationType":"create","record":{"recordName":"m-\#(kind)-\#(name)","recordType":"Item",
                         \#(parent)"fields":{"file":{"value":{"fileChecksum":"\#(record.checksum)","size":\#(record.file.count)}}}}}]}
                        """#, shows: false, "attaching by checksum")
                    if canRead && kind.writes { #expect(attached.text.contains("downloadURL"), "\(kind) attaching \(name)'s file: \(attached.text)") }
                    for accept in [false, true] where kind != .owner {
                        _ = try await probe(accept ? "records/accept" : "records/resolve", #"{"shortGUIDs":[{"value":"\#(guid)","shouldFetchRootRecord":true}]}"#,
                                            in: .public, shows: canRead && name == "list", accept ? "records/accept" : "records/resolve")
                    }
                    Self.check(try await principal.send(.GET, "/share/\(guid)"), record, canRead: false, shows: false, "\(kind) share page")
                    try await Self.checkConsole(principal, record, database: "database=private&owner=\(owner)&zone=Lists", recordName: name,
                                                recordType: "Item")
                }
            }
            for kind in SharedCaller.allCases {
                try await Self.checkDownloads(await seen.urls[kind.rawValue] ?? [], by: callers[kind]!, kind.rawValue,
                                              readable: Self.sharedRecords.filter(kind.canRead).map { final[$0]!.file })
            }
        }
    }

    /// The zone as a participant names it: Alice's "Lists".
    private static func sharedZoneID(owner: String) -> String { #"{"zoneName":"Lists","ownerRecordName":"\#(owner)"}"# }

    /// The notifications a courier holds now (until it answers that none came within its wait).
    static func pending(_ url: String) async throws -> [String] {
        var messages: [String] = []
        for _ in 0..<50 {
            let response = try await HTTPClient.shared.execute(HTTPClientRequest(url: url), timeout: .seconds(30))
            let body = String(buffer: try await response.body.collect(upTo: 1 << 20))
            guard response.status.code == 200 else { return messages }
            messages.append(body)
        }
        throw TestFailure("the courier kept answering: \(messages.count) notifications")
    }
}
