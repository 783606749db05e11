import Foundation
import StratusCore
import Synchronization

/// The fixed attack, all at once, while a well-behaved client keeps reading: 64 slow-body
/// connections (a byte a second, from 127.0.0.2), 10,000 sign-ins with distinct 64 KB usernames,
/// one user's subscriptions at both size limits, 1,000 WebSocket upgrades from 40 users and 16
/// concurrent polls of one courier.
extension HostileBenchmark {
    /// The well-behaved client's request latencies (ms) and how many of its requests failed.
    struct GoodClient: Sendable {
        var latencies: [Double]
        var failures: Int

        var p99: Double {
            let sorted = latencies.sorted()
            return sorted.isEmpty ? .infinity : sorted[min(sorted.count - 1, sorted.count * 99 / 100)]
        }
    }

    static func combinedAttack(_ server: BenchmarkServer, tally: Tally) async throws -> GoodClient {
        let container = BenchmarkServer.containerID
        let encoder = JSONEncoder()
        func send(_ step: String, _ caller: BenchmarkServer, _ path: String, _ body: some Encodable) async throws -> (status: Int, body: Data) {
            let answer = try await caller.send(.POST, path, body: try encoder.encode(body))
            await tally.count(step, answer.status)
            return answer
        }
        func signUp(_ name: String) async throws -> BenchmarkServer {
            let (_, body) = try await send("combined: setup", server, "/auth/1/\(container)/development/signup",
                                           Credentials(username: name, password: "password-\(name)"))
            var caller = server
            caller.webAuthToken = try JSONDecoder().decode(SignInResponse.self, from: body).ckWebAuthToken
            return caller
        }
        // The well-behaved client's data: a zone of small records.
        let good = try await signUp("good")
        let zone = ZoneID(zoneName: "G")
        _ = try await send("combined: setup", good, good.databasePath("zones/modify"), ZonesModifyRequest(operations: [.init(.create, zone)]))
        _ = try await send("combined: setup", good, good.databasePath("records/modify"), RecordsModifyRequest(
            operations: (0..<10).map { RecordOperation(.create, Record(recordName: "g\($0)", recordType: "Small", fields: ["n": .int64(Int64($0))])) },
            zoneID: zone))
        let listeners = try await (0..<40).asyncMap { index in try await signUp("listener\(index)") }
        let courier = try JSONDecoder().decode(TokenCreateResponse.self, from: try await send(
            "combined: setup", server, "/device/1/\(container)/development/tokens/create", TokenCreateRequest()).body).webcourierURL

        let attack = AttackState()
        let outcome = try await withThrowingTaskGroup(of: GoodClient?.self) { group in
            // 64 slow bodies from another address, each opened again once the server answers it.
            for _ in 0..<64 {
                group.addTask {
                    while attack.isRunning { try await SlowBody.send(server, while: attack) }
                    return nil
                }
            }
            // 10,000 sign-ins with distinct 64 KB usernames, 16 at a time.
            group.addTask {
                let padding = String(repeating: "u", count: 64 * 1024)
                for start in stride(from: 0, to: 10_000, by: 16) {
                    try await withThrowingTaskGroup(of: Void.self) { batch in
                        for index in start..<start + 16 {
                            batch.addTask {
                                let (status, _) = try await server.send(.POST, "/auth/1/\(container)/development/signin", body: try encoder.encode(
                                    Credentials(username: "\(index)\(padding)", password: "password")), signedIn: false)
                                await tally.count("combined: 64 KB usernames", status)
                            }
                        }
                        try await batch.waitForAll()
                    }
                }
                return nil
            }
            // One user's subscriptions at both limits: 16 KB each, until the user's 1 MB is full.
            group.addTask {
                for index in 0..<80 {
                    let subscription = CloudSubscription(subscriptionID: "big\(index)", subscriptionType: .database,
                                                    notificationInfo: NotificationInfo(alertBody: String(repeating: "s", count: 16 * 1024 - 120)))
                    _ = try await send("combined: 16 KB subscriptions", server, server.databasePath("subscriptions/modify"),
                                       SubscriptionsModifyRequest(operations: [.init(.create, subscription)]))
                }
                let (status, _) = try await server.send(.GET, server.databasePath("subscriptions/list"), body: nil)
                await tally.count("combined: 16 KB subscriptions", status)
                return nil
            }
            // 1,000 WebSocket upgrades from 40 users.
            group.addTask {
                for (index, listener) in listeners.enumerated() {
                    let url = server.baseURL.replacingOccurrences(of: "http://", with: "ws://")
                        + "/push/1/\(container)/development/websocket?ckAPIToken=\(server.apiToken)&ckWebAuthToken="
                        + (listener.webAuthToken.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? "")
                    let opened = (0..<25).map { _ in RawListener() }
                    for socket in opened { socket.start(url: url) }
                    attack.hold(opened)
                    if index % 8 == 7 { try await Task.sleep(for: .milliseconds(100)) }
                }
                return nil
            }
            // 16 concurrent polls of one courier, each polling again a second after its answer.
            for _ in 0..<16 {
                group.addTask {
                    while attack.isRunning {
                        let (status, _) = try await server.send(.GET, String(courier.dropFirst(server.baseURL.count)), body: nil, signedIn: false)
                        await tally.count("combined: 16 polls of one courier", status)
                        try await Task.sleep(for: .seconds(1))
                    }
                    return nil
                }
            }
            // The well-behaved client, for as long as the sign-ins last and at least 20 seconds.
            group.addTask {
                var client = GoodClient(latencies: [], failures: 0)
                let began = ContinuousClock.now
                let requests: [(String, Encodable & Sendable)] = [
                    (good.databasePath("records/lookup"), RecordsLookupRequest(records: (0..<5).map { .init(recordName: "g\($0)") }, zoneID: zone)),
                    (good.databasePath("records/query"), RecordsQueryRequest(query: CloudQuery(recordType: "Small"), zoneID: zone)),
                    (good.databasePath("changes/zone"), ZoneChangesRequest(zones: [.init(zoneID: zone)])),
                ]
                while attack.isRunning || ContinuousClock.now - began < .seconds(20) {
                    for (path, body) in requests {
                        let started = ContinuousClock.now
                        let status = (try? await good.send(.POST, path, body: try encoder.encode(body)).status) ?? 0
                        let elapsed = ContinuousClock.now - started
                        client.latencies.append(Double(elapsed.components.seconds) * 1000 + Double(elapsed.components.attoseconds) / 1e15)
                        if status != 200 { client.failures += 1 }
                    }
                    try await Task.sleep(for: .milliseconds(20))
                }
                return client
            }
            // The attack lasts until the sign-ins, subscriptions and upgrades are done, and 20 s at least.
            var good: GoodClient?
            var finished = 0
            let began = ContinuousClock.now
            while let result = try await group.next() {
                if let result { good = result }
                finished += 1
                // 3 tasks end on their own (sign-ins, subscriptions, upgrades); then stop the rest.
                if finished == 3 {
                    if ContinuousClock.now - began < .seconds(20) { try await Task.sleep(until: began + .seconds(20), clock: .continuous) }
                    print("  combined: \(attack.socketsConnected) of 1,000 WebSockets held open")
                    attack.stop()
                }
            }
            return good
        }
        attack.closeSockets()
        guard let outcome else { throw BenchmarkError("the well-behaved client reported nothing") }
        return outcome
    }
}

/// Whether the combined attack goes on, and the WebSockets it holds.
final class AttackState: Sendable {
    private let running = Mutex(true)
    private let sockets = Mutex<[RawListener]>([])

    var isRunning: Bool { running.withLock { $0 } }
    func stop() { running.withLock { $0 = false } }
    func hold(_ opened: [RawListener]) { sockets.withLock { $0 += opened } }
    var socketsConnected: Int { sockets.withLock { $0 }.filter(\.isConnected).count }
    func closeSockets() { sockets.withLock { $0 }.forEach { $0.stop() } }
}

/// A request whose body arrives a byte a second from 127.0.0.2 (another client address than the
/// well-behaved client's): it holds its connection until the server's body deadline answers it.
enum SlowBody {
    /// A write to a closed connection fails instead of raising SIGPIPE (Linux's flag; Apple
    /// platforms would set `SO_NOSIGPIPE` on the socket).
    #if canImport(Glibc)
    private static let noSignal = Int32(MSG_NOSIGNAL)
    private static let stream = Int32(SOCK_STREAM.rawValue)
    #else
    private static let noSignal: Int32 = 0
    private static let stream = SOCK_STREAM
    #endif

    static func send(_ server: BenchmarkServer, while attack: AttackState) async throws {
        guard let port = Int(server.baseURL.split(separator: ":").last ?? ""), let socket = connect(port: port) else {
            try await Task.sleep(for: .seconds(1))
            return
        }
        defer { close(socket) }
        let path = "/database/1/\(BenchmarkServer.containerID)/development/public/records/query?ckAPIToken=\(server.apiToken)"
        let head = Array("POST \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n".utf8)
        guard Foundation.send(socket, head, head.count, noSignal) == head.count else { return }
        var answer = [UInt8](repeating: 0, count: 1024)
        while attack.isRunning {
            guard Foundation.send(socket, "{", 1, noSignal) == 1 else { return }
            try await Task.sleep(for: .seconds(1))
            if recv(socket, &answer, answer.count, Int32(MSG_DONTWAIT)) != -1 { return }
        }
    }

    /// A socket from 127.0.0.2 to the server's port.
    private static func connect(port: Int) -> Int32? {
        let socket = Foundation.socket(AF_INET, stream, 0)
        #if canImport(Darwin)
        var one: Int32 = 1
        _ = setsockopt(socket, SOL_SOCKET, SO_NOSIGPIPE, &one, socklen_t(MemoryLayout<Int32>.size))
        #endif
        var local = sockaddr_in()
        local.sin_family = sa_family_t(AF_INET)
        local.sin_addr.s_addr = inet_addr("127.0.0.2")
        var remote = sockaddr_in()
        remote.sin_family = sa_family_t(AF_INET)
        remote.sin_port = in_port_t(UInt16(port).bigEndian)
        remote.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &local) { local in
            withUnsafePointer(to: &remote) { remote in
                local.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) } == 0
                    && remote.withMemoryRebound(to: sockaddr.self, capacity: 1) { Foundation.connect(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) } == 0
            }
        }
        guard connected else {
            close(socket)
            return nil
        }
        return socket
    }
}
