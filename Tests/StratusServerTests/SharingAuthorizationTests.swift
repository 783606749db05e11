import Foundation
import Testing
import StratusCore

/// Every (role × action × place) cell of sharing's access rules, over real HTTP.
@Suite struct SharingAuthorizationTests {
    enum Role: String, CaseIterable { case owner, readWrite, readOnly, pending, removed, publicLink, stranger }
    enum Action: String, CaseIterable { case read, write, delete, changeShare }
    enum Place: String, CaseIterable { case inHierarchy, outsideHierarchy, zoneWide }

    static func expected(_ role: Role, _ action: Action, _ place: Place) -> Bool {
        switch role {
        case .owner: true
        case .readWrite: place != .outsideHierarchy && action != .changeShare
        case .readOnly: place != .outsideHierarchy && action == .read
        case .publicLink: place == .zoneWide && action != .changeShare
        case .pending, .removed, .stranger: false
        }
    }

    @Test func everyCell() async throws {
        try await TestServer.with { server in
            let alice = try await server.signUp("alice")
            var callers: [Role: Caller] = [.owner: alice]
            for role in Role.allCases where role != .owner { callers[role] = try await server.signUp(role.rawValue) }
            func name(_ role: Role) -> String { callers[role]!.username! }

            // Lists: a record share of "list"; Family: a zone-wide share; Open: a zone-wide public link.
            for zone in ["Lists", "Family", "Open"] { try await alice.createZone(zone) }
            _ = try await alice.save([RecordOperation(.create, SharingTests.record("list"))], zone: "Lists")
            let invited: [(String, SharePermission)] = [(name(.readWrite), .readWrite), (name(.readOnly), .readOnly),
                                                        (name(.pending), .readOnly), (name(.removed), .readWrite)]
            let lists = try await alice.share("list", zone: "Lists", participants: invited)
            let family = try await alice.share(nil, zone: "Family", participants: invited)
            let open = try await alice.share(nil, zone: "Open", participants: [], publicPermission: .readWrite)
            for role in [Role.readWrite, .readOnly, .removed] {
                for share in [lists, family] { _ = try await callers[role]!.shareMetadata(share.shareKeys!.shortGUID!, accept: true) }
            }
            _ = try await callers[.publicLink]!.shareMetadata(open.shareKeys!.shortGUID!, accept: true)
            // The removed participant was in, and is taken out of both shares.
            for (zone, shareName) in [("Lists", "share"), ("Family", ShareKeys.zoneShareName)] {
                var share = try #require(try await alice.lookup([shareName], zone: zone, owner: nil).first?.record)
                share.shareKeys = ShareKeys(participants: invited.filter { $0.0 != name(.removed) }.map { username, permission in
                    ShareParticipant(userIdentity: UserIdentity(lookupInfo: LookupInfo(username: username)), permission: permission)
                })
                #expect(try await alice.modify([RecordOperation(.update, share)], zone: zone, owner: nil).first?.record != nil)
            }

            func zone(_ place: Place, _ role: Role) -> (zone: String, share: String) {
                switch place {
                case .inHierarchy, .outsideHierarchy: ("Lists", "share")
                case .zoneWide: (role == .publicLink ? "Open" : "Family", ShareKeys.zoneShareName)
                }
            }
            var cells = 0
            for role in Role.allCases {
                let caller = callers[role]!
                let owner = role == .owner ? nil : alice.userRecordName
                for place in Place.allCases {
                    let (zoneName, shareName) = zone(place, role)
                    let target = "\(place.rawValue)-\(role.rawValue)"
                    _ = try await alice.save([RecordOperation(.create, SharingTests.record(target, parent: place == .inHierarchy ? "list" : nil, "original"))],
                                             zone: zoneName)
                    for action in Action.allCases {
                        let allowed: Bool
                        switch action {
                        case .read:
                            allowed = try await caller.lookup([target], zone: zoneName, owner: owner).first?.record != nil
                        case .write:
                            let change = Record(recordName: target, fields: ["text": .string("changed")])
                            allowed = try await caller.modify([RecordOperation(.forceUpdate, change)], zone: zoneName, owner: owner).first?.record != nil
                            let stored = try await alice.lookup([target], zone: zoneName, owner: nil).first?.record
                            #expect((stored?.fields["text"] == .string("changed")) == allowed, "\(role) \(action) \(place): stored value")
                        case .delete:
                            allowed = try await caller.modify([RecordOperation(.forceDelete, Record(recordName: target))], zone: zoneName,
                                                              owner: owner).first?.record != nil
                            let stored = try await alice.lookup([target], zone: zoneName, owner: nil).first?.record
                            #expect((stored == nil) == allowed, "\(role) \(action) \(place): stored record")
                        case .changeShare:
                            let title = Record(recordName: shareName, fields: ["cloudkit.title": .string("renamed by \(role)")])
                            allowed = try await caller.modify([RecordOperation(.forceUpdate, title)], zone: zoneName, owner: owner).first?.record != nil
                        }
                        #expect(allowed == Self.expected(role, action, place), "\(role) \(action) \(place)")
                        cells += 1
                    }
                }
            }
            #expect(cells == 84)
        }
    }
}
