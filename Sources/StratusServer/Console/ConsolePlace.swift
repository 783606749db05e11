import Hummingbird
import StratusCore

/// Where in a container the data browser is: environment, database, its owner, zone.
struct ConsolePlace {
    let container: String
    let environment: ContainerEnvironment
    let scope: DatabaseScope
    let user: String
    let zone: String

    init(_ request: Request, _ context: StratusRequestContext, form: ConsoleForm? = nil) throws {
        container = try ConsoleRoutes.parameter("container", of: context)
        let parameters = request.uri.queryParameters
        func value(_ name: String) -> String? { form?[name] ?? parameters[Substring(name)].map(String.init) }
        environment = ContainerEnvironment(rawValue: value("environment") ?? "") ?? .development
        scope = DatabaseScope(rawValue: value("database") ?? "") ?? .public
        user = value("user") ?? ""
        zone = value("zone").flatMap { $0.isEmpty ? nil : $0 } ?? ZoneID.defaultZoneName
    }

    /// The values every data page shows and its forms carry.
    var values: [String: Any] {
        ["container": container, "containerPath": ConsoleRoutes.pathComponent(container), "environment": environment.rawValue,
         "production": environment == .production, "private": scope == .private, "shared": scope == .shared, "user": user, "zone": zone]
    }

    /// The data browser at a zone of a user's private database.
    static func privateLink(container: String, environment: ContainerEnvironment, user: String, zone: String) -> String {
        "/console/containers/\(ConsoleRoutes.pathComponent(container))/data?environment=\(environment.rawValue)&database=private"
            + "&user=\(ConsoleRoutes.queryComponent(user))&zone=\(ConsoleRoutes.queryComponent(zone))"
    }

    /// A console link to `page` of this container at this place.
    func link(_ page: String, zone: String, extra: [String: String] = [:]) -> String {
        var items = [("environment", environment.rawValue), ("database", scope.rawValue)]
        if scope != .public { items.append(("user", user)) }
        items.append(("zone", zone))
        items += extra.sorted { $0.key < $1.key }
        return "/console/containers/\(ConsoleRoutes.pathComponent(container))/\(page)?"
            + items.map { "\($0.0)=\(ConsoleRoutes.queryComponent($0.1))" }.joined(separator: "&")
    }
}
