import Foundation
import Hummingbird
import StratusCore

/// The console's users of a container: search, disable, enable, reset a password, delete (the
/// `stratus user` commands' admin service), and a user's page (``AdminService/overview(username:containerID:environment:)``).
struct ConsoleUserRoutes {
    let routes: ConsoleRoutes
    private var services: StratusServices { routes.services }

    func register(on console: RouterGroup<StratusRequestContext>) {
        console.get("containers/:container/users") { request, context in
            try await routes.show(request) { visit in
                let id = try ConsoleRoutes.parameter("container", of: context)
                let search = request.uri.queryParameters["search"].map(String.init).flatMap { $0.isEmpty ? nil : $0 }
                let users = try await services.admin.listUsers(containerID: id, matching: search).map { user -> [String: Any] in
                    ["username": user.username, "path": ConsoleRoutes.pathComponent(user.username), "recordName": user.userRecordName, "email": user.email ?? "",
                     "created": ConsoleRoutes.date(user.createdAt), "disabled": user.disabledAt != nil]
                }
                return ConsoleRoutes.page("console-users", ["pageTitle": "Users of \(id)", "container": id, "containerPath": ConsoleRoutes.pathComponent(id),
                                                   "search": search ?? "", "users": users], visit: visit)
            }
        }
        console.get("containers/:container/users/:username") { request, context in
            try await routes.show(request) { visit in
                let id = try ConsoleRoutes.parameter("container", of: context)
                let username = try ConsoleRoutes.parameter("username", of: context)
                let environment = ContainerEnvironment(rawValue: request.uri.queryParameters["environment"].map(String.init) ?? "") ?? .development
                let overview: UserOverview
                do {
                    overview = try await services.admin.overview(username: username, containerID: id, environment: environment)
                } catch let error as CloudKitError {
                    return ConsoleRoutes.page("console-message", ["pageTitle": "No such user", "text": error.reason], visit: visit, status: .notFound)
                }
                func name(_ recordName: String) -> String { overview.usernames[recordName] ?? recordName }
                let data = "/console/containers/\(ConsoleRoutes.pathComponent(id))/data?environment=\(environment.rawValue)&database=private&user=\(ConsoleRoutes.queryComponent(username))"
                let zones = overview.zones.map { zone -> [String: Any] in
                    ["name": zone.name, "link": data + "&zone=" + ConsoleRoutes.queryComponent(zone.name),
                     "shares": zone.shares.map { share -> [String: Any] in
                         ["record": share.rootRecordName ?? "the whole zone", "publicPermission": share.publicPermission.rawValue,
                          "participants": share.participants.map { ["name": name($0.userRecordName), "permission": $0.permission.rawValue,
                                                                    "status": $0.status.rawValue] }]
                     }]
                }
                let values: [String: Any] = [
                    "pageTitle": username, "container": id, "containerPath": ConsoleRoutes.pathComponent(id), "username": username,
                    "userPath": ConsoleRoutes.pathComponent(username), "recordName": overview.user.userRecordName,
                    "email": overview.user.email ?? "", "environment": environment.rawValue, "signInMethods": overview.signInMethods,
                    "production": environment == .production, "disabled": overview.user.disabledAt != nil, "zones": zones,
                    "sharedWithThem": overview.sharedWithThem.map { ["owner": name($0.owner), "zone": $0.zone] },
                    "subscriptions": overview.subscriptions.map { ["id": $0.subscription.subscriptionID, "type": $0.subscription.subscriptionType.rawValue,
                                                                   "zone": $0.subscription.zoneID?.zoneName ?? ""] },
                    "devices": overview.apnsTokens.map { ["token": String($0.token.prefix(12)) + "…", "apnsEnvironment": $0.apnsEnvironment.rawValue,
                                                          "registered": ConsoleRoutes.date($0.registeredAt)] },
                    "pushConnections": overview.pushConnections,
                ]
                return ConsoleRoutes.page("console-user", values, visit: visit)
            }
        }
        console.post("containers/:container/users/:username/:action") { request, context in
            try await routes.change(request, context) { visit, form in
                let id = try ConsoleRoutes.parameter("container", of: context)
                let username = try ConsoleRoutes.parameter("username", of: context)
                let back = "/console/containers/\(ConsoleRoutes.pathComponent(id))/users"
                do {
                    switch try ConsoleRoutes.parameter("action", of: context) {
                    case "disable":
                        _ = try await services.admin.setDisabled(true, username: username, containerID: id)
                        return visit.redirect(back, notice: "\(username) is disabled: signed out everywhere, and sign-in is refused.")
                    case "enable":
                        _ = try await services.admin.setDisabled(false, username: username, containerID: id)
                        return visit.redirect(back, notice: "\(username) is enabled.")
                    case "reset-password":
                        try await services.admin.resetPassword(username: username, containerID: id, to: form["password"] ?? "")
                        return visit.redirect(back, notice: "\(username) has a new password; their sessions ended.")
                    case "delete":
                        guard form["confirm"] == username else {
                            return visit.redirect(back, notice: "Type the username to confirm deleting \(username).")
                        }
                        try await services.admin.deleteUser(username: username, containerID: id)
                        return visit.redirect(back, notice: "\(username) and their private data are deleted.")
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
