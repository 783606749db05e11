import Foundation
import Testing
import StratusCore
@testable import StratusServer

/// The public database: five record types, each granting READ to one role or to none; six callers.
extension AuthorizationMatrixTests {
    /// Each record type and the role its READ is granted to (nil: no one). Every type grants CREATE
    /// to signed-in users and WRITE to creators.
    static let publicTypes: [(type: String, reader: String?)] = [
        ("ByWorld", SecurityRole.world), ("ByICloud", SecurityRole.icloud), ("ByCreator", SecurityRole.creator), ("ByRole", "Reader"), ("ByNone", nil),
    ]

    static var publicSchema: String {
        var text = "DEFINE SCHEMA\n    CREATE ROLE Reader;\n"
        for (type, reader) in publicTypes {
            var grants: [String: [String]] = ["\"_icloud\"": ["CREATE"], "\"_creator\"": ["WRITE"]]
            if let reader { grants[reader.hasPrefix("_") ? "\"\(reader)\"" : reader, default: []].insert("READ", at: 0) }
            let lines = grants.keys.sorted().map { role in "GRANT \(grants[role]!.joined(separator: ", ")) TO \(role)" }
            text += "    RECORD TYPE \(type) (text STRING QUERYABLE, file ASSET, \(lines.joined(separator: ", ")));\n"
        }
        return text
    }

    /// The callers: no session (`_world`), signed in (`_icloud`), the records' creator, a holder of
    /// the custom role, a user whose role was taken away after they subscribed, a server-to-server key.
    enum PublicCaller: String, CaseIterable {
        case world, icloud, creator, roleHolder, formerRoleHolder, serverKey

        func canRead(_ reader: String?) -> Bool {
            switch self {
            case .world: reader == SecurityRole.world
            case .icloud, .formerRoleHolder: reader == SecurityRole.world || reader == SecurityRole.icloud
            case .creator: reader == SecurityRole.world || reader == SecurityRole.icloud || reader == SecurityRole.creator
            case .roleHolder: reader == SecurityRole.world || reader == SecurityRole.icloud || reader == "Reader"
            case .serverKey: true
            }
        }

        /// Whether it may save records (a user or the backend).
        var creates: Bool { self != .world }
        /// Whether it has a session, so subscriptions and push.
        var listens: Bool { self != .world && self != .serverKey }
        /// Whether it may change the creator's records.
        var writes: Bool { self == .creator || self == .serverKey }
    }

    @Test(.timeLimit(.minutes(5)))
    func publicDatabase() async throws {
        try await APNsTests.withServer(configure: { $0.courierWait = .milliseconds(300) }) { server, apns in
            try await server.server.importSchema(Self.publicSchema, container: TestServer.containerID)
            var principals: [PublicCaller: Principal] = [:]
            for kind in PublicCaller.allCases {
                switch kind {
                case .world: principals[kind] = Principal(name: kind.rawValue, caller: server.anonymous)
                case .serverKey: principals[kind] = Principal(name: kind.rawValue, caller: server.anonymous, backend: try await ServerKeyTests.register(server))
                default: principals[kind] = Principal(name: kind.rawValue, caller: try await server.signUp(kind.rawValue))
                }
            }
            for kind in [PublicCaller.roleHolder, .formerRoleHolder] {
                _ = try await server.server.setUserRole("Reader", granted: true, username: principals[kind]!.caller.username!,
                                                        container: TestServer.containerID, environment: .development)
            }
            let creator = principals[.creator]!.caller
            var secrets: [String: Secrets] = [:]
            for (index, (type, _)) in Self.publicTypes.enumerated() {
                let file = TestFile.bytes(count: 2048, seed: UInt64(100 + index))
                let asset = try await creator.upload(file, record: Self.recordName(type), database: .public)
                let text = "\(type)A\(UUID().uuidString.prefix(8))"
                _ = try await creator.save([.create(Self.recordName(type), type: type, ["text": .string(text), "file": .asset(asset)])], database: .public)
                secrets[type] = Secrets(texts: [text], file: file)
            }

            // Notifications: every caller with a session subscribes to every type (refused without
            // READ on every record of it), listens by courier, APNs and (one of them) WebSocket.
            var couriers: [PublicCaller: String] = [:]
            for kind in PublicCaller.allCases where kind.listens {
                let caller = principals[kind]!.caller
                for (type, reader) in Self.publicTypes + [("Sentinel", SecurityRole.world)] {
                    let subscription = CloudSubscription(subscriptionID: "s-\(type)", subscriptionType: .query, query: CloudQuery(recordType: type),
                                                    notificationInfo: NotificationInfo(shouldSendContentAvailable: true, desiredKeys: ["text"]))
                    let saved = try await caller.post(caller.path(.public, "subscriptions/modify"),
                                                      SubscriptionsModifyRequest(operations: [.init(.create, subscription)]))
                        .decode(SubscriptionsResponse.self).subscriptions.first
                    // The former role holder still holds the role here.
                    let readsEvery = (kind == .formerRoleHolder ? .roleHolder : kind).canRead(reader) && reader != SecurityRole.creator
                    #expect((saved?.error == nil) == readsEvery, "\(kind) subscribing to \(type): \(String(describing: saved?.error))")
                }
                couriers[kind] = try await caller.post("/database/1/\(TestServer.containerID)/development/tokens/create", TokenCreateRequest())
                    .decode(TokenCreateResponse.self).webcourierURL
                _ = try await Self.drain(couriers[kind]!, until: "\"met\"")
                #expect(try await APNsTests.register(caller, Self.apnsToken(kind)).status == 200)
            }
            // While they hold the role, the former role holder hears of the role's record (and the
            // hub remembers that they may): taking the role away must make it forget.
            let heldRole = "ByRoleA\(UUID().uuidString.prefix(8))"
            _ = try await creator.save([RecordOperation(.forceUpdate, Record(recordName: Self.recordName("ByRole"), recordType: "ByRole",
                                                                           fields: ["text": .string(heldRole)]))], database: .public)
            secrets["ByRole"]!.texts.append(heldRole)
            _ = try await Self.drain(couriers[.formerRoleHolder]!, until: heldRole)
            _ = try await Self.apnsPushes(apns, tokens: [Self.apnsToken(.formerRoleHolder)], until: heldRole)
            let pushedWhileHeld = await apns.received.count
            _ = try await server.server.setUserRole("Reader", granted: false, username: principals[.formerRoleHolder]!.caller.username!,
                                                    container: TestServer.containerID, environment: .development)

            // The creator changes every record, then saves the sentinel, which everyone may read:
            // a notification about an earlier change would have come before it.
            let former = principals[.formerRoleHolder]!.caller
            let updates = Dictionary(uniqueKeysWithValues: Self.publicTypes.map { ($0.type, "\($0.type)B\(UUID().uuidString.prefix(8))") })
            let overWebSocket = try await PushBoundsTests.connect(PushBoundsTests.webSocketURL(former), until: "sentinel") {
                for (type, _) in Self.publicTypes {
                    _ = try await creator.save([RecordOperation(.forceUpdate, Record(recordName: Self.recordName(type), recordType: type,
                                                                                   fields: ["text": .string(updates[type]!)]))], database: .public)
                }
                _ = try await creator.save([.create("sentinel", type: "Sentinel")], database: .public)
            }
            #expect(overWebSocket.messages.last?.contains("sentinel") == true, "the WebSocket heard \(overWebSocket.messages)")
            for (type, text) in updates { secrets[type]!.texts.append(text) }
            let final = secrets
            for (type, reader) in Self.publicTypes {
                Self.check(HTTPResult(status: 200, body: Data(overWebSocket.messages.joined(separator: "\n").utf8), headers: [:]), final[type]!,
                           canRead: PublicCaller.formerRoleHolder.canRead(reader), shows: false, "WebSocket notifications to formerRoleHolder of \(type)")
            }
            let pushes = try await Self.apnsPushes(apns, tokens: PublicCaller.allCases.filter(\.listens).map(Self.apnsToken), until: "sentinel", after: pushedWhileHeld)
            for kind in PublicCaller.allCases where kind.listens {
                let heard = try await Self.drain(couriers[kind]!, until: "sentinel")
                let pushed = pushes[Self.apnsToken(kind)] ?? []
                for (type, reader) in Self.publicTypes {
                    let subscribed = kind.canRead(reader) && reader != SecurityRole.creator
                    for (channel, messages) in [("courier", heard), ("APNs", pushed)] {
                        Self.check(HTTPResult(status: 200, body: Data(messages.joined(separator: "\n").utf8), headers: [:]), final[type]!,
                                   canRead: kind.canRead(reader), shows: subscribed, "\(channel) notifications to \(kind) of \(type)")
                    }
                }
            }

            // Every request route, by every caller, about every type's record.
            let seen = SeenURLs()
            for kind in PublicCaller.allCases {
                let principal = principals[kind]!
                for (type, reader) in Self.publicTypes {
                    let record = final[type]!
                    let canRead = kind.canRead(reader)
                    func probe(_ endpoint: String, _ json: String, shows: Bool, _ what: String) async throws -> HTTPResult {
                        let result = try await principal.post(.public, endpoint, json)
                        Self.check(result, record, canRead: canRead, shows: shows, "\(kind) \(what) of \(type)")
                        if !canRead && !json.contains(type) {
                            #expect(!result.text.contains(type), "\(kind) \(what): the answer names the type of a record it may not read: \(result.text)")
                        }
                        await seen.add(Self.downloadURLs(in: result), for: kind.rawValue)
                        return result
                    }
                    _ = try await probe("records/lookup", #"{"records":[{"recordName":"\#(Self.recordName(type))"}]}"#, shows: true, "lookup")
                    _ = try await probe("records/query", #"{"query":{"recordType":"\#(type)"}}"#, shows: true, "query")
                    _ = try await probe("records/query", #"{"query":{"recordType":"\#(type)"},"zoneWide":true}"#, shows: true, "zoneWide query")
                    _ = try await probe("records/changes", #"{"zoneID":{"zoneName":"_defaultZone"}}"#, shows: true, "records/changes")
                    _ = try await probe("changes/zone", #"{"zones":[{"zoneID":{"zoneName":"_defaultZone"}}]}"#, shows: true, "changes/zone")
                    _ = try await probe("records/modify", #"""
                        {"operations":[{"operationType":"update","record":{"recordName":"\#(Self.recordName(type))","recordType":"\#(type)","recordChangeTag":"made-up","fields":{"text":{"value":"x"}}}}]}
                        """#, shows: kind.writes, "conflict answer")
                    _ = try await probe("records/modify", #"""
                        {"operations":[{"operationType":"create","record":{"recordName":"\#(Self.recordName(type))","recordType":"\#(type)","fields":{}}}]}
                        """#, shows: kind.creates, "EXISTS answer")
                    _ = try await probe("records/history", #"{"recordName":"\#(Self.recordName(type))"}"#, shows: kind.writes, "records/history")
                    _ = try await probe("records/deleted", #"{}"#, shows: false, "records/deleted")
                    _ = try await probe("records/restore", #"{"operations":[{"recordName":"\#(Self.recordName(type))","recordChangeTag":"1"}]}"#,
                                        shows: false, "records/restore")
                    let receipt = try await probe("assets/rereference", #"{"assets":[{"recordName":"\#(Self.recordName(type))","fieldName":"file"}]}"#, shows: false,
                                                  "assets/rereference")
                    if canRead && kind.creates { #expect(receipt.text.contains("\"receipt\""), "\(kind) rereference of \(type): \(receipt.text)") }
                    let attached = try await probe("records/modify", #"""
                        {"operations":[{"operationType":"create","record":{"recordName":"m-\#(kind)-\#(type)","recordType":"\#(type)",
                         "fields":{"file":{"value":{"fileChecksum":"\#(record.checksum)","size":\#(record.file.count)}}}}}]}
                        """#, shows: false, "attaching by checksum")
                    if canRead && kind.creates { #expect(attached.text.contains("downloadURL"), "\(kind) attaching \(type)'s file: \(attached.text)") }
                    try await Self.checkConsole(principal, record, database: "database=public&zone=_defaultZone", recordName: Self.recordName(type),
                                                recordType: type)
                }
            }
            for kind in PublicCaller.allCases {
                try await Self.checkDownloads(await seen.urls[kind.rawValue] ?? [], by: principals[kind]!.caller, kind.rawValue,
                                              readable: Self.publicTypes.filter { kind.canRead($0.reader) }.map { final[$0.type]!.file })
            }
        }
    }

    /// The name of the type's record, which does not name the type.
    static func recordName(_ type: String) -> String {
        "r\(publicTypes.firstIndex { $0.type == type }!)"
    }

    static func apnsToken(_ kind: PublicCaller) -> String {
        String(repeating: String(format: "%02x", PublicCaller.allCases.firstIndex(of: kind)! + 1), count: 32)
    }
}
