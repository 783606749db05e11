import Hummingbird

/// *Extension*: probes for load balancers and orchestrators, outside the CloudKit paths and
/// without a token. `GET /healthz` answers while the process serves; `GET /readyz` only while
/// the storage answers and its schema is at the newest migration (503 otherwise).
struct HealthRoutes {
    let storage: any StratusStorage

    func register(on router: Router<StratusRequestContext>) {
        router.get("healthz") { _, _ in
            try JSONBody.response(["status": "ok"])
        }
        router.get("readyz") { _, _ in
            let ready = await storage.isReady()
            return try JSONBody.response(["status": ready ? "ready" : "not ready"], status: ready ? .ok : .serviceUnavailable)
        }
    }
}
