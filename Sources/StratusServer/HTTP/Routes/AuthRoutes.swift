import Hummingbird
import StratusCore

/// *Extension* endpoints for accounts: `POST /auth/1/{container}/{environment}/signup`,
/// `/signin` and `/signout`. Each needs the container's `ckAPIToken`.
struct AuthRoutes {
    let auth: AuthService
    let hub: NotificationHub
    let maxRequestBytes: Int

    func register(on router: Router<StratusRequestContext>) {
        let group = router.group("auth/1/:container/:environment")
        group.post("signup") { request, context in
            let (containerID, environment) = try await authorize(request, context)
            let credentials = try await JSONBody.decode(Credentials.self, from: request, limit: maxRequestBytes)
            return try JSONBody.response(try await auth.signUp(credentials, containerID: containerID, environment: environment,
                                                                      client: context.clientAddress))
        }
        group.post("signin") { request, context in
            let (containerID, environment) = try await authorize(request, context)
            let credentials = try await JSONBody.decode(Credentials.self, from: request, limit: maxRequestBytes)
            return try JSONBody.response(try await auth.signIn(credentials, containerID: containerID, environment: environment,
                                                                      client: context.clientAddress))
        }
        group.post("signout") { request, context in
            let (containerID, environment) = try await authorize(request, context)
            guard let token = DatabaseAuthenticator.webAuthToken(request) else { throw AuthService.authenticationRequired }
            _ = try await auth.user(webAuthToken: token, containerID: containerID, environment: environment)
            await hub.endSession(try await auth.signOut(webAuthToken: token))
            return try JSONBody.response([String: String]())
        }
    }

    private func authorize(_ request: Request, _ context: StratusRequestContext) async throws -> (String, ContainerEnvironment) {
        let (containerID, environment) = try DatabaseAuthenticator.containerAndEnvironment(context)
        try await auth.checkAPIToken(DatabaseAuthenticator.apiToken(request), containerID: containerID)
        return (containerID, environment)
    }
}
