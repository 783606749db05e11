import StratusCore

extension CloudDatabase {
    /// Creates, updates and deletes subscriptions (CloudKit's `modifySubscriptions(saving:deleting:)`).
    /// A subscription whose ID exists is updated; a new one is created.
    public func modifySubscriptions(saving: [CloudSubscription], deleting: [String] = []) async throws
        -> (saveResults: [String: Result<CloudSubscription, CloudError>], deleteResults: [String: Result<Void, CloudError>]) {
        let existing = Set(try await allSubscriptions().map(\.subscriptionID))
        let operations = saving.map { SubscriptionsModifyRequest.Operation(existing.contains($0.subscriptionID) ? .update : .create, $0) }
            + deleting.map { SubscriptionsModifyRequest.Operation(.delete, CloudSubscription(subscriptionID: $0, subscriptionType: .database)) }
        let answers = try await post("subscriptions/modify", SubscriptionsModifyRequest(operations: operations), as: SubscriptionsResponse.self)
            .subscriptions
        var saved: [String: Result<CloudSubscription, CloudError>] = [:]
        var deleted: [String: Result<Void, CloudError>] = [:]
        for (index, answer) in answers.enumerated() where index < operations.count {
            let outcome: Result<CloudSubscription, CloudError> = answer.value.map { .success($0) } ?? .failure(Self.subscriptionError(answer.error))
            if index < saving.count {
                saved[saving[index].subscriptionID] = outcome
            } else {
                deleted[deleting[index - saving.count]] = outcome.map { _ in () }
            }
        }
        return (saved, deleted)
    }

    /// Creates or updates one subscription.
    @discardableResult
    public func save(subscription: CloudSubscription) async throws -> CloudSubscription {
        guard let outcome = try await modifySubscriptions(saving: [subscription]).saveResults[subscription.subscriptionID] else {
            throw CloudError(.internalError, "no result for subscription \(subscription.subscriptionID)")
        }
        return try outcome.get()
    }

    /// Deletes one subscription.
    public func deleteSubscription(withID id: String) async throws {
        try await modifySubscriptions(saving: [], deleting: [id]).deleteResults[id]?.get()
    }

    /// The signed-in user's subscriptions in this database.
    public func allSubscriptions() async throws -> [CloudSubscription] {
        try await get("subscriptions/list", as: SubscriptionsResponse.self).subscriptions.compactMap(\.value)
    }

    private static func subscriptionError(_ error: SubscriptionError?) -> CloudError {
        guard let error else { return CloudError(.internalError, "empty subscription result") }
        return CloudError(server: error.serverErrorCode, reason: error.reason, retryAfter: nil)
    }
}
