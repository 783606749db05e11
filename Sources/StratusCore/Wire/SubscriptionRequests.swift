/// A per-subscription failure.
public struct SubscriptionError: Error, Codable, Sendable, Equatable {
    public var subscriptionID: String?
    public var reason: String
    public var serverErrorCode: ServerErrorCode
    public var uuid: String?

    public init(subscriptionID: String?, error: CloudKitError, uuid: String? = nil) {
        self.subscriptionID = subscriptionID
        reason = error.reason
        serverErrorCode = error.code
        self.uuid = uuid
    }
}

/// An entry of a `subscriptions` array: a subscription or why it failed.
public typealias SubscriptionResult = ItemResult<Subscription, SubscriptionError>

/// The response of `subscriptions/list`, `subscriptions/lookup` and `subscriptions/modify`.
public struct SubscriptionsResponse: Codable, Sendable, Equatable {
    public var subscriptions: [SubscriptionResult]

    public init(subscriptions: [SubscriptionResult]) { self.subscriptions = subscriptions }
}

/// The body of `subscriptions/lookup`.
public struct SubscriptionsLookupRequest: Codable, Sendable, Equatable {
    public struct Item: Codable, Sendable, Equatable {
        public var subscriptionID: String
        public init(subscriptionID: String) { self.subscriptionID = subscriptionID }
    }

    public var subscriptions: [Item]

    public init(subscriptions: [Item]) { self.subscriptions = subscriptions }
}

/// The body of `subscriptions/modify`.
public struct SubscriptionsModifyRequest: Codable, Sendable, Equatable {
    public struct Operation: Codable, Sendable, Equatable {
        public enum OperationType: String, Codable, Sendable { case create, update, delete }
        public var operationType: OperationType
        public var subscription: Subscription

        public init(_ operationType: OperationType, _ subscription: Subscription) {
            self.operationType = operationType
            self.subscription = subscription
        }
    }

    public var operations: [Operation]

    public init(operations: [Operation]) { self.operations = operations }
}

/// The body of `tokens/create`.
public struct TokenCreateRequest: Codable, Sendable, Equatable {
    public var apnsEnvironment: String?
    public init(apnsEnvironment: String? = nil) { self.apnsEnvironment = apnsEnvironment }
}

/// `tokens/register`: the APNs device token of an app, to which the signed-in user's
/// subscriptions then deliver; `apnsEnvironment` picks APNs' sandbox (`development`) or production host.
public struct TokenRegisterRequest: Codable, Sendable, Equatable {
    public var apnsEnvironment: String
    /// The device token as the app received it, in hex (or base64).
    public var apnsToken: String

    public init(apnsEnvironment: String, apnsToken: String) {
        self.apnsEnvironment = apnsEnvironment
        self.apnsToken = apnsToken
    }
}

/// The response of `tokens/create`: where to long-poll for notifications.
public struct TokenCreateResponse: Codable, Sendable, Equatable {
    public var apnsEnvironment: String
    public var apnsToken: String
    public var webcourierURL: String

    public init(apnsEnvironment: String, apnsToken: String, webcourierURL: String) {
        self.apnsEnvironment = apnsEnvironment
        self.apnsToken = apnsToken
        self.webcourierURL = webcourierURL
    }
}
