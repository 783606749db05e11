import Foundation
import GRDB
import StratusCore

extension SQLiteTransaction {
    func subscriptions(databaseID: Int64, owner: String?) throws -> [StoredSubscription] {
        let rows = if let owner {
            try Row.fetchAll(db.cachedStatement(sql: "SELECT owner, body FROM subscriptions WHERE database_id = ? AND owner = ? ORDER BY subscription_id"),
                             arguments: [databaseID, owner])
        } else {
            try Row.fetchAll(db.cachedStatement(sql: "SELECT owner, body FROM subscriptions WHERE database_id = ?"), arguments: [databaseID])
        }
        return rows.compactMap { row in
            let body: String = row[1]
            guard let subscription = try? JSONDecoder().decode(Subscription.self, from: Data(body.utf8)) else { return nil }
            return StoredSubscription(databaseID: databaseID, owner: row[0], subscription: subscription)
        }
    }

    func saveSubscription(_ stored: StoredSubscription) throws {
        let body = String(decoding: try JSONEncoder().encode(stored.subscription), as: UTF8.self)
        try db.execute(sql: """
            INSERT OR REPLACE INTO subscriptions (database_id, owner, subscription_id, body) VALUES (?, ?, ?, ?)
            """, arguments: [stored.databaseID, stored.owner, stored.subscription.subscriptionID, body])
    }

    func deleteSubscription(databaseID: Int64, owner: String, subscriptionID: String) throws -> Bool {
        try db.execute(sql: "DELETE FROM subscriptions WHERE database_id = ? AND owner = ? AND subscription_id = ?",
                       arguments: [databaseID, owner, subscriptionID])
        return db.changesCount > 0
    }
}
