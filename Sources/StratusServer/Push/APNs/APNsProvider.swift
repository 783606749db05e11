import AsyncHTTPClient
import Foundation
import Logging
import NIOCore
import NIOHTTP1
import NIOSSL
import ServiceLifecycle
import StratusCore

/// Delivery of notifications through Apple's push service, so that a subscription wakes an iOS
/// app that holds no connection: `tokens/register` stores an app's device token for the signed-in
/// user, and each notification for that user is then POSTed to APNs' HTTP/2 provider API, signed
/// with the container's token key (see ``APNsProviderToken``).
///
/// A notification without an alert is a background push (`content-available`, priority 5), one
/// with an alert a visible one (priority 10); each carries `apns-expiration` and, where the
/// subscription names a `collapseIDKey`, an `apns-collapse-id`. A token APNs reports unregistered
/// (410, or 400 `BadDeviceToken`) is forgotten. Failures are logged and not retried: notifications
/// are hints, and the device fetches by change token when it next syncs.
///
/// A device token lives as long as the session that registered it: signing out (one session or
/// all), a password change or reset, disabling and deleting the account remove it
/// (``NotificationHub/endSessions(_:)`` drops the cached lists), and a token whose session expired
/// is not pushed to (the cached lists last ``deviceListLifetime``).
///
/// Runs as a service so that its HTTP client closes with the server.
package actor APNsProvider: Service {
    /// What became of the pushes sent so far.
    package struct Statistics: Sendable, Equatable {
        package var delivered = 0
        package var failed = 0
        package var unregistered = 0
        package var dropped = 0
    }

    /// The largest payload APNs takes, in bytes.
    static let maxPayloadBytes = 4096

    private let storage: any StratusStorage
    private let configuration: APNsConfiguration
    private let logger: Logger
    private let clock: ServerClock
    private var client: HTTPClient?
    private var credentials: [String: APNsCredentials?] = [:]
    private var providerTokens: [String: APNsProviderToken] = [:]
    /// Each user's device tokens, as read at a time (monotonic seconds).
    private var tokens: [NotificationHub.Listener: (read: ContinuousClock.Instant, devices: [StoredAPNsToken])] = [:]
    private var inFlight = 0
    private var shutDown = false
    package private(set) var statistics = Statistics()

    init(storage: any StratusStorage, configuration: APNsConfiguration, clock: ServerClock, logger: Logger) {
        self.storage = storage
        self.clock = clock
        self.configuration = configuration
        self.logger = logger
    }

    // MARK: Credentials and tokens

    /// Sets a container's credentials (nil removes them) after checking them.
    package func setCredentials(_ new: APNsCredentials?, containerID: String) async throws {
        if let new { try APNsProviderToken.validate(new) }
        let audit = AuditLog.entry(new == nil ? "apns.remove" : "apns.set", container: containerID, new.map { "key \($0.keyID), team \($0.teamID), topic \($0.topic)" } ?? "", at: clock.milliseconds)
        try await storage.write { transaction in
            try await transaction.setAPNsCredentials(new, containerID: containerID)
            try await transaction.appendAudit(audit)
        }
        credentials[containerID] = nil
        providerTokens[containerID] = nil
    }

    package func credentials(containerID: String) async throws -> APNsCredentials? {
        if let known = credentials[containerID] { return known }
        let loaded = try await storage.read { try await $0.apnsCredentials(containerID: containerID) }
        credentials[containerID] = .some(loaded)
        return loaded
    }

    /// `tokens/register`: the signed-in user's app on this device is to receive their notifications.
    package func register(_ request: TokenRegisterRequest, _ access: DatabaseAccess) async throws {
        let user = try access.requireUser()
        guard let apnsEnvironment = ContainerEnvironment(rawValue: request.apnsEnvironment) else {
            throw CloudKitError.badRequest("apnsEnvironment must be development or production")
        }
        guard let token = Self.hexToken(request.apnsToken) else {
            throw CloudKitError.badRequest("apnsToken must be the device token in hex (or base64), 8 to 100 bytes")
        }
        let stored = StoredAPNsToken(containerID: access.containerID, environment: access.environment, user: user, token: token,
                                     apnsEnvironment: apnsEnvironment, registeredAt: clock.milliseconds, sessionHash: access.session?.tokenHash)
        let maxPerUser = configuration.maxTokensPerUser
        try await storage.write { try await $0.registerAPNsToken(stored, maxPerUser: maxPerUser) }
        // The token may have been another user's: forget every cached list.
        tokens = [:]
    }

    /// A device token in lowercase hex, from hex or base64; nil for anything else.
    static func hexToken(_ text: String) -> String? {
        let hexDigits = text.utf8.allSatisfy { ($0 >= 48 && $0 <= 57) || ($0 | 0x20 >= 97 && $0 | 0x20 <= 102) }
        if hexDigits, text.count % 2 == 0, (16...200).contains(text.count) { return text.lowercased() }
        guard let bytes = Data(base64Encoded: text), (8...100).contains(bytes.count) else { return nil }
        return bytes.map { String(format: "%02x", $0) }.joined()
    }

    // MARK: Delivery

    /// Whether the container has APNs credentials, so that its notifications go to APNs too.
    package func isEnabled(containerID: String) async -> Bool {
        do {
            return try await credentials(containerID: containerID) != nil
        } catch {
            logger.error("APNs credentials of \(containerID) could not be read: \(error)")
            return false
        }
    }

    /// Sends the notifications to every device token the user registered in the container
    /// environment. Returns whether the user has any (the notifications are then on their way).
    package func deliver(_ pushes: [NotificationHub.Outgoing], to listener: NotificationHub.Listener) async -> Bool {
        guard !pushes.isEmpty, !shutDown else { return false }
        do {
            guard let credentials = try await credentials(containerID: listener.containerID) else { return false }
            let devices = try await devices(of: listener)
            guard !devices.isEmpty else { return false }
            for device in devices {
                for push in pushes {
                    guard inFlight < configuration.maxInFlight else {
                        statistics.dropped += 1
                        continue
                    }
                    inFlight += 1
                    Task { await self.send(push, to: device, credentials: credentials) }
                }
            }
            return true
        } catch {
            logger.error("APNs delivery failed: \(error)")
            return false
        }
    }

    /// How long a user's device list is used before it is read again (so that a token whose
    /// session expired stops receiving within this time).
    static let deviceListLifetime: Duration = .seconds(60)

    /// Forgets every cached device list: sessions ended, and their tokens with them.
    package func forgetDevices() {
        tokens = [:]
    }

    private func devices(of listener: NotificationHub.Listener) async throws -> [StoredAPNsToken] {
        let now = ContinuousClock.now
        if let known = tokens[listener], now - known.read < Self.deviceListLifetime { return known.devices }
        let loaded = try await storage.read {
            try await $0.apnsTokens(containerID: listener.containerID, environment: listener.environment, user: listener.user, liveAt: self.clock.milliseconds)
        }
        if tokens.count >= 10_000 { tokens = [:] }
        tokens[listener] = (now, loaded)
        return loaded
    }

    private func send(_ push: NotificationHub.Outgoing, to device: StoredAPNsToken, credentials: APNsCredentials) async {
        defer { inFlight -= 1 }
        do {
            let request = try makeRequest(push, to: device, credentials: credentials)
            let response = try await httpClient().execute(request, timeout: .seconds(30))
            let body = try await response.body.collect(upTo: 64 * 1024)
            guard response.version.major == 2 else {
                statistics.failed += 1
                logger.error("APNs host \(request.url) answered in HTTP/\(response.version.major), not HTTP/2")
                return
            }
            let reason = (try? JSONDecoder().decode(APNsError.self, from: body))?.reason ?? ""
            switch (response.status.code, reason) {
            case (200, _):
                statistics.delivered += 1
            case (410, _), (400, "BadDeviceToken"):
                let token = device.token
                _ = try await storage.write { try await $0.removeAPNsToken(token, containerID: device.containerID) }
                tokens = [:]
                // Counted once forgotten, so that a count tells the token is gone.
                statistics.unregistered += 1
            case (403, "ExpiredProviderToken"), (403, "InvalidProviderToken"):
                statistics.failed += 1
                providerTokens[device.containerID] = nil
                logger.error("APNs refused the provider token of \(device.containerID): \(reason)")
            default:
                statistics.failed += 1
                logger.warning("APNs answered \(response.status.code) \(reason) for a push to a device of \(device.user)")
            }
        } catch {
            statistics.failed += 1
            logger.warning("APNs push failed: \(error)")
        }
    }

    private func makeRequest(_ push: NotificationHub.Outgoing, to device: StoredAPNsToken, credentials: APNsCredentials) throws -> HTTPClientRequest {
        let host = device.apnsEnvironment == .production ? configuration.productionURL : configuration.sandboxURL
        var request = HTTPClientRequest(url: "\(host)/3/device/\(device.token)")
        request.method = .POST
        let isAlert = push.payload.aps.alert != nil
        request.headers.add(name: "authorization", value: try providerToken(credentials, containerID: device.containerID).authorization)
        request.headers.add(name: "apns-topic", value: credentials.topic)
        request.headers.add(name: "apns-push-type", value: isAlert ? "alert" : "background")
        request.headers.add(name: "apns-priority", value: isAlert ? "10" : "5")
        request.headers.add(name: "apns-expiration", value: String(clock.milliseconds / 1000 + configuration.expiration.components.seconds))
        request.headers.add(name: "apns-id", value: push.payload.ck.nid)
        if let collapseID = push.collapseID { request.headers.add(name: "apns-collapse-id", value: collapseID) }
        request.headers.add(name: "content-type", value: "application/json")
        request.body = .bytes(ByteBuffer(bytes: Self.payload(push.payload)))
        return request
    }

    /// The payload's JSON, at most ``maxPayloadBytes``: past it, the record's fields are left out
    /// and the notification marked pruned (the app fetches the record).
    static func payload(_ notification: PushNotification) -> Data {
        let encoder = JSONEncoder()
        let full = (try? encoder.encode(notification)) ?? Data("{}".utf8)
        guard full.count > maxPayloadBytes else { return full }
        var pruned = notification
        pruned.ck.qry?.af = nil
        pruned.ck.p = true
        return (try? encoder.encode(pruned)) ?? Data("{}".utf8)
    }

    private func providerToken(_ credentials: APNsCredentials, containerID: String) throws -> APNsProviderToken {
        let now = clock.milliseconds / 1000
        if let known = providerTokens[containerID], known.isFresh(at: now) { return known }
        let token = try APNsProviderToken(credentials: credentials, issuedAt: now)
        providerTokens[containerID] = token
        return token
    }

    private func httpClient() throws -> HTTPClient {
        if let client { return client }
        var tls = TLSConfiguration.makeClientConfiguration()
        if let file = configuration.additionalTrustRoots {
            tls.additionalTrustRoots = [.certificates(try NIOSSLCertificate.fromPEMFile(file.path))]
        }
        let made = HTTPClient(eventLoopGroupProvider: .singleton, configuration: HTTPClient.Configuration(tlsConfiguration: tls))
        client = made
        return made
    }

    /// Waits for the server to stop, then closes the HTTP client.
    package func run() async throws {
        try? await gracefulShutdown()
        shutDown = true
        try await client?.shutdown()
        client = nil
    }

    private struct APNsError: Decodable {
        var reason: String
    }
}
