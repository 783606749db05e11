import ArgumentParser
import Foundation
import StratusCore
import StratusServer

/// `stratus webhook …`: webhook endpoints of a container, through the server's admin service
/// (docs/webhooks.md). A change takes effect on running servers without a restart.
struct WebhookCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "webhook", abstract: "Manage the webhook endpoints that hear a container's committed changes.",
        subcommands: [Add.self, List.self, Remove.self, Disable.self, Enable.self, RotateSecret.self, Replay.self, Deliveries.self])

    /// The store, the container and the endpoint a subcommand works on.
    struct EndpointLocation: ParsableArguments {
        @OptionGroup var location: DataLocation
        @Argument(help: "The endpoint's id (ep_…).") var id: String

        func admin() async throws -> AdminService { try await location.server().services.admin }
    }

    /// `stratus webhook add`: prints the new endpoint's id, then its secret (shown once).
    struct Add: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Add an endpoint; print its id and its signing secret (shown once).")
        @OptionGroup var location: DataLocation
        @Option(help: "development or production.") var environment = "development"
        @Option(help: "Where events are posted (https://; http:// only with --webhook-allow-private).") var url: String
        @Option(help: "Hear only this database's changes: public, private or shared (repeatable).") var databaseScope: [String] = []
        @Option(help: "Hear only this record type's changes (repeatable).") var recordType: [String] = []
        @Option(help: "Hear only this zone's changes (repeatable).") var zone: [String] = []
        @Flag(help: "Allow http:// and private, loopback and link-local addresses (tests, local development).") var webhookAllowPrivate = false
        @Flag(help: "Print the endpoint and its secret as JSON.") var json = false

        func run() async throws {
            guard let environment = ContainerEnvironment(rawValue: environment) else { throw ValidationError("--environment is development or production") }
            let scopes = try databaseScope.map { name in
                guard let scope = DatabaseScope(rawValue: name) else { throw ValidationError("'\(name)' is not public, private or shared") }
                return scope
            }
            var configuration = location.store.configuration()
            configuration.webhooks.allowsPrivateAddresses = webhookAllowPrivate
            let admin = try await StratusServer(configuration: configuration).services.admin
            let (endpoint, secret) = try await AdminCall.run {
                try await admin.addWebhook(containerID: location.container, environment: environment, url: url,
                                           filter: WebhookFilter(scopes: scopes, recordTypes: recordType, zones: zone))
            }
            if json {
                var object = WebhookCommand.object(endpoint)
                object["secret"] = secret
                try WebhookCommand.printJSON(object)
            } else {
                print("id: \(endpoint.id)")
                print("secret (shown once): \(secret)")
            }
        }
    }

    /// `stratus webhook list`: one endpoint per line (or JSON).
    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "List the container's endpoints.")
        @OptionGroup var location: DataLocation
        @Flag(help: "Print the endpoints as JSON.") var json = false

        func run() async throws {
            let admin = try await location.server().services.admin
            let endpoints = try await AdminCall.run { try await admin.webhooks(containerID: location.container) }
            if json { return try WebhookCommand.printJSON(endpoints.map(WebhookCommand.object)) }
            for endpoint in endpoints {
                var line = "\(endpoint.id)\t\(endpoint.state.name)\t\(endpoint.environment.rawValue)\t\(endpoint.url)\tthrough \(endpoint.cursor)"
                if endpoint.attempts > 0 { line += "\t\(endpoint.attempts) failed tries, next \(AdminCall.date(endpoint.nextAttemptAt))" }
                print(line)
            }
        }
    }

    struct Remove: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Remove an endpoint.")
        @OptionGroup var endpoint: EndpointLocation

        func run() async throws {
            let admin = try await endpoint.admin()
            try await AdminCall.run { try await admin.removeWebhook(id: endpoint.id, containerID: endpoint.location.container) }
            print("removed \(endpoint.id)")
        }
    }

    struct Disable: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Stop delivering to an endpoint; its events are no longer kept for it.")
        @OptionGroup var endpoint: EndpointLocation

        func run() async throws {
            let admin = try await endpoint.admin()
            _ = try await AdminCall.run { try await admin.setWebhookEnabled(false, id: endpoint.id, containerID: endpoint.location.container) }
            print("disabled \(endpoint.id)")
        }
    }

    struct Enable: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Deliver to an endpoint again, from where it stopped.")
        @OptionGroup var endpoint: EndpointLocation

        func run() async throws {
            let admin = try await endpoint.admin()
            _ = try await AdminCall.run { try await admin.setWebhookEnabled(true, id: endpoint.id, containerID: endpoint.location.container) }
            print("enabled \(endpoint.id)")
        }
    }

    /// `stratus webhook rotate-secret`: prints the new secret; the old one signs too for 24 hours.
    struct RotateSecret: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "rotate-secret", abstract: "Give an endpoint a new secret (printed once); the old one signs too for 24 hours.")
        @OptionGroup var endpoint: EndpointLocation

        func run() async throws {
            let admin = try await endpoint.admin()
            let secret = try await AdminCall.run { try await admin.rotateWebhookSecret(id: endpoint.id, containerID: endpoint.location.container) }
            print("secret (shown once): \(secret)")
        }
    }

    /// `stratus webhook replay --since EVENT-ID|TIME`.
    struct Replay: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Deliver an endpoint's events again from an event (its webhook-id) or a time (ISO 8601), and enable it.")
        @OptionGroup var endpoint: EndpointLocation
        @Option(help: "An event's webhook-id (evt_…), or a time in ISO 8601.") var since: String

        func run() async throws {
            let start: WebhookReplayStart
            if since.hasPrefix("evt_") {
                start = .event(since)
            } else if let date = try? Date(since, strategy: .iso8601) {
                start = .time(Int64(date.timeIntervalSince1970 * 1000))
            } else {
                throw ValidationError("--since takes an event id (evt_…) or a time in ISO 8601 (2026-12-01T09:00:00Z)")
            }
            let admin = try await endpoint.admin()
            let replay = try await AdminCall.run { try await admin.replayWebhook(id: endpoint.id, containerID: endpoint.location.container, from: start) }
            print("replaying \(endpoint.id) after position \(replay.endpoint.cursor)")
            if let first = replay.gapBefore {
                print("gap: the log no longer holds the events before position \(first); they cannot be replayed")
            }
        }
    }

    /// `stratus webhook deliveries`: the endpoint's last attempts, newest first.
    struct Deliveries: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Show an endpoint's last delivery attempts (at most 100, from the last 7 days).")
        @OptionGroup var endpoint: EndpointLocation
        @Flag(help: "Print the attempts as JSON.") var json = false

        func run() async throws {
            let admin = try await endpoint.admin()
            let attempts = try await AdminCall.run { try await admin.webhookAttempts(id: endpoint.id, containerID: endpoint.location.container) }
            if json {
                return try WebhookCommand.printJSON(attempts.map { attempt -> [String: Any] in
                    ["eventID": attempt.eventID, "attemptedAt": AdminCall.date(attempt.attemptedAt), "status": attempt.status,
                     "latencyMs": attempt.latencyMilliseconds, "answer": attempt.answer]
                })
            }
            for attempt in attempts {
                let status = attempt.status == 0 ? "no answer" : String(attempt.status)
                print("\(AdminCall.date(attempt.attemptedAt))\t\(attempt.eventID)\t\(status)\t\(attempt.latencyMilliseconds) ms\t\(attempt.answer.prefix(80))")
            }
        }
    }

    /// An endpoint as `--json` prints it (never its secret).
    static func object(_ endpoint: StoredWebhookEndpoint) -> [String: Any] {
        var object: [String: Any] = [
            "id": endpoint.id, "container": endpoint.containerID, "environment": endpoint.environment.rawValue, "url": endpoint.url,
            "state": endpoint.state.name, "databaseScopes": endpoint.filter.scopes.map(\.rawValue), "recordTypes": endpoint.filter.recordTypes,
            "zones": endpoint.filter.zones, "deliveredThrough": endpoint.cursor, "failedTries": endpoint.attempts,
            "createdAt": AdminCall.date(endpoint.createdAt),
        ]
        if endpoint.attempts > 0 { object["nextAttemptAt"] = AdminCall.date(endpoint.nextAttemptAt) }
        if let until = endpoint.previousSecretUntil { object["previousSecretSignsUntil"] = AdminCall.date(until) }
        return object
    }

    static func printJSON(_ value: Any) throws {
        let data = try JSONSerialization.data(withJSONObject: value, options: [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes])
        print(String(decoding: data, as: UTF8.self))
    }
}
