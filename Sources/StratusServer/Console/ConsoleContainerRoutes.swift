import Foundation
import Hummingbird
import StratusCore

/// The console's containers: the list, a new container, and a container's page with its API
/// token (shown, rotated), server-to-server keys and APNs credentials, through the services the
/// `stratus container`, `key` and `apns` commands call.
struct ConsoleContainerRoutes {
    let routes: ConsoleRoutes
    private var services: StratusServices { routes.services }

    func register(on console: RouterGroup<StratusRequestContext>) {
        console.get("containers") { request, _ in
            try await routes.show(request) { visit in
                let containers = try await services.admin.listContainers().map { ["id": $0.id, "created": ConsoleRoutes.date($0.createdAt)] }
                return ConsoleRoutes.page("console-containers", ["pageTitle": "Containers", "containers": containers], visit: visit)
            }
        }
        console.post("containers") { request, context in
            try await routes.change(request, context) { visit, form in
                let id = form["id"] ?? ""
                do {
                    _ = try await services.admin.createContainer(id: id)
                    return ConsoleRoutes.redirect("/console/containers/\(ConsoleRoutes.pathComponent(id))")
                } catch let error as CloudKitError {
                    return visit.redirect("/console/containers", notice: error.reason)
                }
            }
        }
        console.get("containers/:container") { request, context in
            try await routes.show(request) { visit in
                let id = try ConsoleRoutes.parameter("container", of: context)
                guard let container = try await services.containers.container(id: id) else { throw HTTPError(.notFound) }
                var values: [String: Any] = ["pageTitle": id, "container": id, "containerPath": ConsoleRoutes.pathComponent(id),
                                             "apiToken": container.apiToken, "created": ConsoleRoutes.date(container.createdAt),
                                             "webOrigins": container.webOrigins.map { ["origin": $0] },
                                             "historyDaysValue": container.historyDays.map(String.init) ?? "",
                                             "serverHistoryDays": String(services.history.retention.serverDefault.components.seconds / 86_400)]
                // A section shows its content for any number, 0 included.
                if let days = container.historyDays { values["historyDays"] = String(days) }
                values["keys"] = try await services.serverKeys.list(containerID: id).map { key -> [String: Any] in
                    ["keyID": key.keyID, "created": ConsoleRoutes.date(key.createdAt), "revoked": key.revokedAt.map(ConsoleRoutes.date) ?? ""]
                }
                if let apns = try await services.apns.credentials(containerID: id) {
                    values["apns"] = ["keyID": apns.keyID, "teamID": apns.teamID, "topic": apns.topic]
                }
                return ConsoleRoutes.page("console-container", values, visit: visit)
            }
        }
        console.post("containers/:container/settings/:action") { request, context in
            try await routes.change(request, context) { visit, form in
                let id = try ConsoleRoutes.parameter("container", of: context)
                let back = "/console/containers/\(ConsoleRoutes.pathComponent(id))"
                do {
                    switch try ConsoleRoutes.parameter("action", of: context) {
                    case "rotate-token":
                        _ = try await services.admin.rotateAPIToken(containerID: id)
                        return visit.redirect(back, notice: "The API token was replaced; apps with the old one are refused.")
                    case "add-web-origin":
                        _ = try await services.admin.addWebOrigin(form["origin"] ?? "", containerID: id)
                        return visit.redirect(back, notice: "Web apps of that origin may sign users in.")
                    case "remove-web-origin":
                        _ = try await services.admin.removeWebOrigin(form["origin"] ?? "", containerID: id)
                        return visit.redirect(back, notice: "That origin's web apps may no longer sign users in.")
                    case "set-history-days":
                        let text = (form["days"] ?? "").trimmingCharacters(in: .whitespaces)
                        guard text.isEmpty || Int(text) != nil else { return visit.redirect(back, notice: "Days must be a number, or empty.") }
                        try await services.admin.setHistoryDays(Int(text), containerID: id)
                        return visit.redirect(back, notice: text.isEmpty ? "History follows the server's setting." : "History is kept \(text) days.")
                    case "add-key":
                        let key = try await services.serverKeys.add(containerID: id, publicKeyPEM: form["publicKey"] ?? "")
                        return visit.redirect(back, notice: "Server-to-server key \(key.keyID) added.")
                    case "revoke-key":
                        let revoked = try await services.serverKeys.revoke(keyID: form["keyID"] ?? "", containerID: id)
                        return visit.redirect(back, notice: revoked ? "The key is revoked." : "There is no such live key.")
                    case "set-apns":
                        let credentials = APNsCredentials(keyID: form["keyID"] ?? "", teamID: form["teamID"] ?? "", topic: form["topic"] ?? "",
                                                          privateKeyPEM: form["privateKey"] ?? "")
                        try await services.apns.setCredentials(credentials, containerID: id)
                        return visit.redirect(back, notice: "APNs credentials set.")
                    case "remove-apns":
                        try await services.apns.setCredentials(nil, containerID: id)
                        return visit.redirect(back, notice: "APNs credentials removed.")
                    default:
                        throw HTTPError(.notFound)
                    }
                } catch let error as CloudKitError {
                    return visit.redirect(back, notice: error.reason)
                }
            }
        }
    }
}
