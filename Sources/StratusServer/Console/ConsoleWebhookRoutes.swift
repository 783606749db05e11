import Foundation
import Hummingbird
import StratusCore

/// The console's webhook endpoints of a container: the list with each endpoint's state, a new
/// endpoint (its secret shown once, in the page's note), disable, enable, a new secret, replay
/// from a time, removal, and an endpoint's last attempts — through the admin service the
/// `stratus webhook` commands call.
struct ConsoleWebhookRoutes {
    let routes: ConsoleRoutes
    private var services: StratusServices { routes.services }

    func register(on console: RouterGroup<StratusRequestContext>) {
        console.get("containers/:container/webhooks") { request, context in
            try await routes.show(request) { visit in
                let id = try ConsoleRoutes.parameter("container", of: context)
                guard try await services.containers.container(id: id) != nil else { throw HTTPError(.notFound) }
                let endpoints = try await services.admin.webhooks(containerID: id).map { endpoint -> [String: Any] in
                    var values: [String: Any] = ["id": endpoint.id, "url": endpoint.url, "environment": endpoint.environment.rawValue,
                                                 "state": endpoint.state.name, "through": String(endpoint.cursor),
                                                 "filter": Self.describe(endpoint.filter), "created": ConsoleRoutes.date(endpoint.createdAt)]
                    if endpoint.state != .disabled { values["enabled"] = true }
                    if endpoint.attempts > 0 {
                        values["failures"] = "\(endpoint.attempts) failed tries; next \(ConsoleRoutes.date(endpoint.nextAttemptAt))"
                    }
                    return values
                }
                return ConsoleRoutes.page("console-webhooks", ["pageTitle": "Webhooks of \(id)", "container": id, "containerPath": ConsoleRoutes.pathComponent(id),
                                                              "endpoints": endpoints], visit: visit)
            }
        }
        console.get("containers/:container/webhook-deliveries/:endpoint") { request, context in
            try await routes.show(request) { visit in
                let id = try ConsoleRoutes.parameter("container", of: context)
                let endpoint = try ConsoleRoutes.parameter("endpoint", of: context)
                let attempts: [WebhookAttempt]
                do {
                    attempts = try await services.admin.webhookAttempts(id: endpoint, containerID: id)
                } catch let error as CloudKitError where error.code == .notFound {
                    throw HTTPError(.notFound)
                }
                let rows = attempts.map { attempt -> [String: Any] in
                    ["when": ConsoleRoutes.date(attempt.attemptedAt), "event": attempt.eventID, "status": attempt.status == 0 ? "no answer" : String(attempt.status),
                     "latency": "\(attempt.latencyMilliseconds) ms", "answer": String(attempt.answer.prefix(200))]
                }
                return ConsoleRoutes.page("console-webhook-attempts", ["pageTitle": "Deliveries to \(endpoint)", "container": id, "endpoint": endpoint,
                                                                      "containerPath": ConsoleRoutes.pathComponent(id), "attempts": rows], visit: visit)
            }
        }
        console.post("containers/:container/webhooks/:action") { request, context in
            try await routes.change(request, context) { visit, form in
                let id = try ConsoleRoutes.parameter("container", of: context)
                let back = "/console/containers/\(ConsoleRoutes.pathComponent(id))/webhooks"
                let endpoint = form["endpoint"] ?? ""
                do {
                    switch try ConsoleRoutes.parameter("action", of: context) {
                    case "add":
                        guard let environment = ContainerEnvironment(rawValue: form["environment"] ?? "development") else {
                            return visit.redirect(back, notice: "The environment is development or production.")
                        }
                        let scopes = (form["database"] ?? "").isEmpty ? [] : [DatabaseScope(rawValue: form["database"] ?? "")].compactMap { $0 }
                        let filter = WebhookFilter(scopes: scopes, recordTypes: Self.names(form["recordTypes"]), zones: Self.names(form["zones"]))
                        let (added, secret) = try await services.admin.addWebhook(containerID: id, environment: environment, url: form["url"] ?? "",
                                                                                  filter: filter)
                        return visit.redirect(back, notice: "Endpoint \(added.id) added. Its signing secret, shown this once: \(secret)")
                    case "disable":
                        _ = try await services.admin.setWebhookEnabled(false, id: endpoint, containerID: id)
                        return visit.redirect(back, notice: "Endpoint \(endpoint) is disabled; its events are no longer kept for it.")
                    case "enable":
                        _ = try await services.admin.setWebhookEnabled(true, id: endpoint, containerID: id)
                        return visit.redirect(back, notice: "Endpoint \(endpoint) is enabled; it goes on where it stopped.")
                    case "rotate-secret":
                        let secret = try await services.admin.rotateWebhookSecret(id: endpoint, containerID: id)
                        return visit.redirect(back, notice: "Endpoint \(endpoint)'s new secret, shown this once (the old one signs too for 24 hours): \(secret)")
                    case "replay":
                        guard let date = try? Date(form["since"] ?? "", strategy: .iso8601) else {
                            return visit.redirect(back, notice: "Give the time to replay from in ISO 8601 (2026-12-01T09:00:00Z).")
                        }
                        let replay = try await services.admin.replayWebhook(id: endpoint, containerID: id,
                                                                            from: .time(Int64(date.timeIntervalSince1970 * 1000)))
                        let gap = replay.gapBefore.map { " The log no longer holds what came before position \($0)." } ?? ""
                        return visit.redirect(back, notice: "Endpoint \(endpoint) delivers again what was committed after position \(replay.endpoint.cursor).\(gap)")
                    case "remove":
                        try await services.admin.removeWebhook(id: endpoint, containerID: id)
                        return visit.redirect(back, notice: "Endpoint \(endpoint) removed.")
                    default:
                        throw HTTPError(.notFound)
                    }
                } catch let error as CloudKitError {
                    return visit.redirect(back, notice: error.reason)
                }
            }
        }
    }

    /// Comma-separated names, trimmed, empty ones dropped.
    static func names(_ text: String?) -> [String] {
        (text ?? "").split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
    }

    /// What the endpoint hears, in a few words.
    static func describe(_ filter: WebhookFilter) -> String {
        var parts: [String] = []
        if !filter.scopes.isEmpty { parts.append("databases " + filter.scopes.map(\.rawValue).joined(separator: ", ")) }
        if !filter.recordTypes.isEmpty { parts.append("types " + filter.recordTypes.joined(separator: ", ")) }
        if !filter.zones.isEmpty { parts.append("zones " + filter.zones.joined(separator: ", ")) }
        return parts.isEmpty ? "everything" : parts.joined(separator: "; ")
    }
}
