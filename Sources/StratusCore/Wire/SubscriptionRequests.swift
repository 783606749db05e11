/// A per-subscription failure.
package struct SubscriptionError: Error, Codable, Sendable, Equatable {
    package var subscriptionID: String?
    package var reason: String
    package var serverErrorCode: ServerErrorCode
    package var uuid: String?

    package init(subscriptionID: String?, error: CloudKitError, uuid: String? = nil) {
        self.subscriptionID = subscriptionID
        reason = error.reason
        serverErrorCode = error.code
        self.uuid = uuid
    }
}

/// An entry of a `subscriptions` array: a subscription or why it failed.
package typealias SubscriptionResult = ItemResult<CloudSubscription, SubscriptionError>

/// The response of `subscriptions/list`, `subscriptions/lookup` and `subscriptions/modify`.
package struct SubscriptionsResponse: Codable, Sendable, Equatable {
    package var subscriptions: [SubscriptionResult]

    package init(subscriptions: [SubscriptionResult]) { self.subscriptions = subscriptions }
}

/// The body of `subscriptions/lookup`.
package struct SubscriptionsLookupRequest: Codable, Sendable, Equatable {
    package struct Item: Codable, Sendable, Equatable {
        package var subscriptionID: String
        package init(subscriptionID: String) { self.subscriptionID = subscriptionID }
    }

    package var subscriptions: [Item]

    package init(subscriptions: [Item]) { self.subscriptions = subscriptions }
}

/// The body of `subscriptions/modify`.
package struct SubscriptionsModifyRequest: Codable, Sendable, Equatable {
    package struct Operation: Codable, Sendable, Equatable {
        package enum OperationType: String, Codable, Sendable { case create, update, delete }
        package var operationType: OperationType
        package var subscription: CloudSubscription

        package init(_ operationType: OperationType, _ subscription: CloudSubscription) {
            self.operationType = operationType
            self.subscription = subscription
        }
    }

    package var operations: [Operation]

    package init(operations: [Operation]) { self.operations = operations }
}

/// The body of `tokens/create`.
package struct TokenCreateRequest: Codable, Sendable, Equatable {
    package var apnsEnvironment: String?
    package init(apnsEnvironment: String? = nil) { self.apnsEnvironment = apnsEnvironment }
}

/// `tokens/register`: the APNs device token of an app, to which the signed-in user's
/// subscriptions then deliver; `apnsEnvironment` picks APNs' sandbox (`development`) or production host.
package struct TokenRegisterRequest: Codable, Sendable, Equatable {
    package var apnsEnvironment: String
    /// The device token as the app received it, in hex (or base64).
    package var apnsToken: String

    package init(apnsEnvironment: String, apnsToken: String) {
        self.apnsEnvironment = apnsEnvironment
        self.apnsToken = apnsToken
    }
}

/// The response of `tokens/create`: where to long-poll for notifications.
package struct TokenCreateResponse: Codable, Sendable, Equatable {
    package var apnsEnvironment: String
    package var apnsToken: String
    package var webcourierURL: String

    package init(apnsEnvironment: String, apnsToken: String, webcourierURL: String) {
        self.apnsEnvironment = apnsEnvironment
        self.apnsToken = apnsToken
        self.webcourierURL = webcourierURL
    }
}
