import Foundation
import StratusCore

/// ``SubscriptionStore`` in the SQL both drivers speak; a subscription is kept as its JSON.
extension SubscriptionStore where Self: SQLDatabase {
    package func subscriptions(databaseID: Int64, owner: String?) async throws -> [StoredSubscription] {
        let rows = if let owner {
            try await fetch("SELECT owner, body FROM subscriptions WHERE database_id = \(databaseID) AND owner = \(owner) ORDER BY subscription_id")
        } else {
            try await fetch("SELECT owner, body FROM subscriptions WHERE database_id = \(databaseID) ORDER BY owner, subscription_id")
        }
        return try rows.compactMap { row in
            guard let subscription = try? JSONDecoder().decode(CloudSubscription.self, from: Data(try row.string(1).utf8)) else { return nil }
            return StoredSubscription(databaseID: databaseID, owner: try row.string(0), subscription: subscription)
        }
    }

    package func saveSubscription(_ stored: StoredSubscription) async throws {
        let body = String(decoding: try JSONEncoder().encode(stored.subscription), as: UTF8.self)
        try await run("""
            INSERT INTO subscriptions (database_id, owner, subscription_id, body)
            VALUES (\(stored.databaseID), \(stored.owner), \(stored.subscription.subscriptionID), \(body))
            ON CONFLICT (database_id, owner, subscription_id) DO UPDATE SET body = EXCLUDED.body
            """)
    }

    package func deleteSubscription(databaseID: Int64, owner: String, subscriptionID: String) async throws -> Bool {
        try await changedRowCount("""
            DELETE FROM subscriptions WHERE database_id = \(databaseID) AND owner = \(owner) AND subscription_id = \(subscriptionID) RETURNING 1
            """) > 0
    }
}
