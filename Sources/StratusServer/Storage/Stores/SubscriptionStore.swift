/// The subscriptions of each database.
package protocol SubscriptionStore {
    /// Subscriptions of a database, all of them or one user's.
    func subscriptions(databaseID: Int64, owner: String?) async throws -> [StoredSubscription]
    /// Creates or replaces a subscription.
    func saveSubscription(_ subscription: StoredSubscription) async throws
    /// Deletes a subscription; false if there was none.
    func deleteSubscription(databaseID: Int64, owner: String, subscriptionID: String) async throws -> Bool
}
