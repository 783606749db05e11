import Foundation
import Hummingbird
import StratusCore

/// The console's schema page: both environments' schemas in the schema language, the deploy from
/// development to production with what it would change (or why it would be refused, as
/// `stratus schema validate` says it) shown before it is made, and a schema file imported into
/// development or exported from either environment.
struct ConsoleSchemaRoutes {
    let routes: ConsoleRoutes
    private var services: StratusServices { routes.services }

    func register(on console: RouterGroup<StratusRequestContext>) {
        console.get("containers/:container/schema") { request, context in
            try await routes.show(request) { visit in
                let id = try ConsoleRoutes.parameter("container", of: context)
                guard try await services.containers.container(id: id) != nil else { throw HTTPError(.notFound) }
                let development = try await services.schema.export(containerID: id, environment: .development)
                var values: [String: Any] = [
                    "pageTitle": "Schema of \(id)", "container": id, "containerPath": ConsoleRoutes.pathComponent(id),
                    "development": development, "production": try await services.schema.export(containerID: id, environment: .production),
                ]
                switch try await services.schema.validate(development, containerID: id).deploy {
                case .success(let changes):
                    values["changes"] = changes.map(\.description)
                    values["upToDate"] = changes.isEmpty
                case .failure(let conflict):
                    values["problems"] = conflict.problems
                }
                return ConsoleRoutes.page("console-schema", values, visit: visit)
            }
        }
        console.get("containers/:container/schema/export") { request, context in
            try await routes.show(request) { _ in
                let id = try ConsoleRoutes.parameter("container", of: context)
                let environment = ContainerEnvironment(rawValue: request.uri.queryParameters["environment"].map(String.init) ?? "") ?? .development
                let text = try await services.schema.export(containerID: id, environment: environment)
                return Response(status: .ok, headers: [.contentType: "text/plain; charset=utf-8", .cacheControl: "no-store",
                                                       .contentDisposition: "attachment; filename=\"\(environment.rawValue).ckdb\""],
                                body: .init(byteBuffer: ByteBuffer(string: text)))
            }
        }
        console.post("containers/:container/schema/:action") { request, context in
            try await routes.change(request, context) { visit, form in
                let id = try ConsoleRoutes.parameter("container", of: context)
                let back = "/console/containers/\(ConsoleRoutes.pathComponent(id))/schema"
                do {
                    switch try ConsoleRoutes.parameter("action", of: context) {
                    case "deploy":
                        let changes = try await services.schema.deploy(containerID: id)
                        return visit.redirect(back, notice: changes.isEmpty ? "Production was up to date."
                                                      : "Deployed to production: " + changes.map(\.description).joined(separator: "; "))
                    case "import":
                        _ = try await services.schema.importIntoDevelopment(form["text"] ?? "", containerID: id)
                        return visit.redirect(back, notice: "Development has the imported schema.")
                    default:
                        throw HTTPError(.notFound)
                    }
                } catch let conflict as SchemaConflict {
                    return visit.redirect(back, notice: "Deploy refused, production would lose data: " + conflict.problems.joined(separator: "; "))
                } catch let error as SchemaTextError {
                    return visit.redirect(back, notice: "The schema does not read: \(error)")
                } catch let error as CloudKitError {
                    return visit.redirect(back, notice: error.reason)
                }
            }
        }
    }
}
