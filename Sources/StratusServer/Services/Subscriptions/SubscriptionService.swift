import Foundation
import StratusCore

/// `subscriptions/list`, `subscriptions/lookup` and `subscriptions/modify`: a user's standing
/// requests for notifications in a database. Each user sees and changes only their own.
package struct SubscriptionService: Sendable {
    let storage: any StratusStorage
    let directory: DatabaseDirectory
    let hub: NotificationHub
    let maxOperations: Int
    /// Subscriptions one user may have in one database.
    let maxPerUser: Int
    /// A subscription's size as sent, and a user's subscriptions' in one database together.
    let maxBytes: Int
    let maxBytesPerUser: Int

    package func list(_ access: DatabaseAccess) async throws -> SubscriptionsResponse {
        let user = try access.requireUser()
        let databaseID = try await directory.databaseID(for: access)
        let stored = try await storage.read { try await $0.subscriptions(databaseID: databaseID, owner: user) }
        return SubscriptionsResponse(subscriptions: stored.map { .success($0.subscription) })
    }

    package func lookup(_ request: SubscriptionsLookupRequest, _ access: DatabaseAccess) async throws -> SubscriptionsResponse {
        let user = try access.requireUser()
        let databaseID = try await directory.databaseID(for: access)
        let stored = try await storage.read { try await $0.subscriptions(databaseID: databaseID, owner: user) }
        return SubscriptionsResponse(subscriptions: request.subscriptions.map { item in
            guard let found = stored.first(where: { $0.subscription.subscriptionID == item.subscriptionID }) else {
                return .failure(SubscriptionError(subscriptionID: item.subscriptionID,
                                                  error: .notFound("subscription '\(item.subscriptionID)' does not exist")))
            }
            return .success(found.subscription)
        })
    }

    /// Creates, updates and deletes subscriptions; each operation succeeds or fails on its own.
    package func modify(_ request: SubscriptionsModifyRequest, _ access: DatabaseAccess) async throws -> SubscriptionsResponse {
        let user = try access.requireUser()
        guard request.operations.count <= maxOperations else {
            throw CloudKitError.limitExceeded("at most \(maxOperations) subscription operations per request")
        }
        let databaseID = try await directory.databaseID(for: access)
        let bounds = self
        return try await storage.write(publishingTo: hub) { transaction, changes in
            changes.subscriptionsChanged(databaseID: databaseID)
            return SubscriptionsResponse(subscriptions: try await request.operations.asyncMap { operation in
                let subscription = operation.subscription
                do {
                    try await transaction.withSavepoint {
                        try await bounds.apply(operation, owner: user, databaseID: databaseID, access: access, in: transaction)
                    }
                    return .success(subscription)
                } catch let error as CloudKitError {
                    return .failure(SubscriptionError(subscriptionID: subscription.subscriptionID, error: error, uuid: SecretGenerator.uuid()))
                }
            })
        }
    }

    private func apply(_ operation: SubscriptionsModifyRequest.Operation, owner: String, databaseID: Int64,
                       access: DatabaseAccess, in transaction: any StorageTransaction) async throws {
        let subscription = operation.subscription
        let id = subscription.subscriptionID
        guard !id.isEmpty, id.utf8.count <= 255 else { throw CloudKitError.badRequest("subscriptionID must have 1 to 255 characters") }
        let existing = try await transaction.subscriptions(databaseID: databaseID, owner: owner)
        let exists = existing.contains { $0.subscription.subscriptionID == id }
        if operation.operationType == .create, !exists, existing.count >= maxPerUser {
            throw CloudKitError.limitExceeded("a user may have at most \(maxPerUser) subscriptions in a database; delete some first")
        }
        switch operation.operationType {
        case .delete:
            guard try await transaction.deleteSubscription(databaseID: databaseID, owner: owner, subscriptionID: id) else {
                throw CloudKitError.notFound("subscription '\(id)' does not exist")
            }
            return
        case .create where exists:
            throw CloudKitError(.exists, "subscription '\(id)' already exists")
        case .update where !exists:
            throw CloudKitError.notFound("subscription '\(id)' does not exist")
        case .create, .update:
            let size = subscription.sentSize
            guard size <= maxBytes else {
                throw CloudKitError.limitExceeded("a subscription may be at most \(maxBytes) bytes; this one is \(size)")
            }
            let others = existing.filter { $0.subscription.subscriptionID != id }.reduce(0) { $0 + $1.subscription.sentSize }
            guard others + size <= maxBytesPerUser else {
                throw CloudKitError.limitExceeded("a user's subscriptions in a database may be at most \(maxBytesPerUser) bytes together; delete some first")
            }
            try await Self.validate(subscription, databaseID: databaseID, access: access, in: transaction)
            if access.scope == .public, let recordType = subscription.query?.recordType {
                // Notifications name the records they are about: only a caller who may read every
                // record of the type may hear of them.
                var roles = PublicPermissions(access, in: transaction)
                guard try await roles.readScope(of: recordType) == .every else {
                    throw CloudKitError.accessDenied("the security roles of '\(recordType)' do not let you read every record of it, which a subscription needs")
                }
            }
            try await transaction.saveSubscription(StoredSubscription(databaseID: databaseID, owner: owner, subscription: subscription))
        }
    }

    /// CloudKit's rules: the public database takes query subscriptions (and, an extension for its
    /// change feed, zone subscriptions of its `_defaultZone`), the shared database database
    /// subscriptions only; a query needs a record type and at least one trigger; a zone
    /// subscription needs an existing zone.
    private static func validate(_ subscription: CloudSubscription, databaseID: Int64, access: DatabaseAccess,
                                 in transaction: any StorageTransaction) async throws {
        switch (access.scope, subscription.subscriptionType) {
        case (.public, .database):
            throw CloudKitError.badRequest("the public database supports query and zone subscriptions only")
        case (.shared, .query), (.shared, .zone):
            throw CloudKitError.badRequest("the shared database supports database subscriptions only")
        default: break
        }
        switch subscription.subscriptionType {
        case .query:
            guard let query = subscription.query, !query.recordType.isEmpty else {
                throw CloudKitError.badRequest("a query subscription needs query.recordType")
            }
            if let firesOn = subscription.firesOn, firesOn.isEmpty {
                throw CloudKitError.badRequest("firesOn needs at least one of create, update, delete")
            }
            for filter in query.filterBy ?? [] where filter.fieldName == nil && filter.systemFieldName == nil {
                throw CloudKitError.badRequest("every filter needs a fieldName")
            }
        case .zone:
            guard let zoneID = subscription.zoneID else { throw CloudKitError.badRequest("a zone subscription needs a zoneID") }
            _ = try await DatabaseDirectory.zone(zoneID, databaseID: databaseID, access: access, in: transaction)
        case .database:
            break
        }
    }
}

extension CloudSubscription {
    /// Its size in bytes as a client sends it (its JSON), which bounds what is stored and cached.
    var sentSize: Int { (try? JSONEncoder().encode(self).count) ?? Int.max }
}
