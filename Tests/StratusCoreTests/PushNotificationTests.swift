import Foundation
import Testing
import StratusCore

/// A notification read through its typed properties, from the payloads the server sends.
@Suite struct PushNotificationTests {
    static func decode(_ json: String) throws -> PushNotification {
        try JSONDecoder().decode(PushNotification.self, from: Data(json.utf8))
    }

    @Test func aQueryNotificationNamesItsRecordReasonAndFields() throws {
        let notification = try Self.decode("""
            {"aps":{"alert":{"body":"Urgent!"}},"ck":{"cid":"iCloud.c","nid":"n1","qry":{"rid":"r1","zid":"Lists","zoid":"_owner","dbs":3,"fo":3,"sid":"s1",
             "af":{"title":{"value":"Milk","type":"STRING"}}}}}
            """)
        #expect(notification.subject == .query(recordName: "r1", zoneID: ZoneID(zoneName: "Lists", ownerRecordName: "_owner"),
                                                reason: .recordDeleted, recordFields: ["title": .string("Milk")]))
        #expect(notification.databaseScope == .shared && notification.subscriptionID == "s1" && notification.alertBody == "Urgent!")
        #expect(notification.containerIdentifier == "iCloud.c" && notification.notificationID == "n1" && !notification.isPruned)
    }

    /// What `notificationInfo` asked the alert to show, as CKNotification names it.
    @Test func theAlertBadgeSoundAndCategoryAreTyped() throws {
        let notification = try Self.decode("""
            {"aps":{"alert":{"loc-key":"NEW_ITEM","loc-args":["Milk"]},"badge":3,"sound":"ping.caf","category":"LIST"},
             "ck":{"cid":"c","nid":"n","met":{"dbs":2,"sid":"all"}}}
            """)
        #expect(notification.alertLocalizationKey == "NEW_ITEM" && notification.alertLocalizationArgs == ["Milk"])
        #expect(notification.badge == 3 && notification.soundName == "ping.caf" && notification.category == "LIST")
        #expect(notification.alertBody == nil)
    }

    @Test func zoneAndDatabaseNotifications() throws {
        let zone = try Self.decode(#"{"aps":{},"ck":{"cid":"c","nid":"n","fet":{"zid":"Notes","zoid":"_me","dbs":2,"sid":"z"}}}"#)
        #expect(zone.subject == .recordZone(ZoneID(zoneName: "Notes", ownerRecordName: "_me")) && zone.databaseScope == .private)
        let database = try Self.decode(#"{"aps":{},"ck":{"cid":"c","nid":"n","met":{"dbs":1,"sid":"all"}}}"#)
        #expect(database.subject == .database && database.databaseScope == .public && database.subscriptionID == "all")
    }

    /// The catch-up notification a connection starts with: pruned, sent by no subscription.
    @Test func aCatchUpNotificationIsPrunedAndNamesNoSubscription() throws {
        let catchUp = try Self.decode(#"{"aps":{"content-available":1},"ck":{"cid":"c","nid":"n","p":true,"met":{"dbs":2,"sid":""}}}"#)
        #expect(catchUp.isPruned && catchUp.subscriptionID == nil && catchUp.subject == .database)
    }

    /// A payload this client does not understand (a reason it does not know) has no subject.
    @Test func anUnknownReasonHasNoSubject() throws {
        let unknown = try Self.decode(#"{"aps":{},"ck":{"cid":"c","nid":"n","qry":{"rid":"r","zid":"z","dbs":2,"fo":9,"sid":"s"}}}"#)
        #expect(unknown.subject == nil && unknown.databaseScope == .private)
        #expect(DatabaseScope(notificationValue: 0) == nil)
        for scope in [DatabaseScope.public, .private, .shared] { #expect(DatabaseScope(notificationValue: scope.notificationValue) == scope) }
    }
}
