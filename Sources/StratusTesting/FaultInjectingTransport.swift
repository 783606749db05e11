import Foundation
import StratusClient
import StratusCore
import Synchronization

/// A transport that stands between a device and the server and breaks the exchange on demand:
/// offline, a dropped request, a response lost after the server applied the request, a delay, or
/// a chosen CloudKit error.
public final class FaultInjectingTransport: Transport {
    /// What to do to one upcoming request.
    public enum Fault: Sendable {
        /// The request never reaches the server (`networkFailure`).
        case dropRequest
        /// The server applies the request, but its answer is lost (`networkFailure`).
        case dropResponse
        /// The exchange is delayed, then happens.
        case delay(Duration)
        /// The server seems to answer with this error code (and `retryAfter`), without being asked.
        case fail(ServerErrorCode, retryAfter: Int? = nil)
    }

    private let base: any Transport
    private let clock: any Clock<Duration>
    /// A queued fault and the requests it waits for.
    private struct Queued {
        var fault: Fault
        var endpoint: String?
        var minimumOperations = 0

        func matches(_ path: String, _ request: TransportRequest) -> Bool {
            guard endpoint.map({ path.hasSuffix($0) }) ?? true else { return false }
            guard minimumOperations > 0 else { return true }
            guard case .bytes(let body) = request.body else { return false }
            return Self.operationCount(in: body) >= minimumOperations
        }

        /// The operations a `records/modify` body carries (each has one `operationType`).
        private static func operationCount(in body: [UInt8]) -> Int {
            let key = Array("\"operationType\"".utf8)
            guard body.count >= key.count else { return 0 }
            return (0...(body.count - key.count)).count { body[$0..<($0 + key.count)].elementsEqual(key) }
        }
    }

    /// Queued faults, each for the next request, or the next to an endpoint.
    private let state = Mutex<(offline: Bool, faults: [Queued], sent: [String])>((false, [], []))

    /// A transport in front of `base`; `delay` faults wait on `clock`.
    public init(base: any Transport = TestCloud.defaultTransport, clock: any Clock<Duration> = ContinuousClock()) {
        self.base = base
        self.clock = clock
    }

    /// While offline, every request fails with `networkUnavailable`.
    public func setOffline(_ offline: Bool) {
        state.withLock { $0.offline = offline }
    }

    /// Whether requests fail as if the device were offline.
    public var isOffline: Bool { state.withLock { $0.offline } }

    /// Queues faults for the next requests, in order.
    public func inject(_ faults: Fault...) {
        state.withLock { $0.faults += faults.map { Queued(fault: $0) } }
    }

    /// Queues a fault for the next request to a path ending with `endpoint` (such as
    /// `records/modify`) — with `minimumOperations`, the next one carrying at least that many
    /// operations (a `LIMIT_EXCEEDED` only a batch can earn); other requests pass it by.
    public func inject(_ fault: Fault, on endpoint: String, minimumOperations: Int = 0) {
        state.withLock { $0.faults.append(Queued(fault: fault, endpoint: endpoint, minimumOperations: minimumOperations)) }
    }

    /// Drops every queued fault.
    public func clearFaults() {
        state.withLock { $0.faults.removeAll() }
    }

    /// How many requests reached the server.
    public var requestsSent: Int { state.withLock { $0.sent.count } }

    /// How many requests reached the server at a path ending with `endpoint` (such as `records/modify`).
    public func requestsSent(to endpoint: String) -> Int {
        state.withLock { $0.sent.filter { $0.hasSuffix(endpoint) }.count }
    }

    /// Sends the request through the base transport, unless a queued fault or being offline breaks it.
    public func send(_ request: TransportRequest) async throws -> TransportResponse {
        let path = Self.path(of: request)
        let (offline, fault) = state.withLock { state -> (Bool, Fault?) in
            if state.offline { return (true, nil) }
            guard let index = state.faults.firstIndex(where: { $0.matches(path, request) }) else { return (false, nil) }
            return (false, state.faults.remove(at: index).fault)
        }
        if offline { throw CloudError(.networkUnavailable, "the device is offline") }
        switch fault {
        case .dropRequest?:
            throw CloudError(.networkFailure, "injected fault: the request was dropped")
        case .dropResponse?:
            _ = try await forward(request)
            throw CloudError(.networkFailure, "injected fault: the response was dropped")
        case .delay(let duration)?:
            try await clock.sleep(for: duration)
            return try await forward(request)
        case .fail(let code, let retryAfter)?:
            let body = ErrorDictionary(uuid: UUID().uuidString, serverErrorCode: code, reason: "injected fault", retryAfter: retryAfter)
            return TransportResponse(status: code.httpStatus, body: Array(try JSONEncoder().encode(body)))
        case nil:
            return try await forward(request)
        }
    }

    private func forward(_ request: TransportRequest) async throws -> TransportResponse {
        let path = Self.path(of: request)
        state.withLock { $0.sent.append(path) }
        return try await base.send(request)
    }

    private static func path(of request: TransportRequest) -> String {
        String(request.url.split(separator: "?").first ?? "")
    }
}
