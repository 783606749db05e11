import Foundation
import StratusClient
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
    /// Queued faults, each for the next request, or the next to an endpoint.
    private let state = Mutex<(offline: Bool, faults: [(fault: Fault, endpoint: String?)], sent: [String])>((false, [], []))

    /// A transport in front of `base`; `delay` faults wait on `clock`.
    public init(base: any Transport = HTTPTransport(), clock: any Clock<Duration> = ContinuousClock()) {
        self.base = base
        self.clock = clock
    }

    /// While offline, every request fails with `networkUnavailable`.
    public func setOffline(_ offline: Bool) {
        state.withLock { $0.offline = offline }
    }

    public var isOffline: Bool { state.withLock { $0.offline } }

    /// Queues faults for the next requests, in order.
    public func inject(_ faults: Fault...) {
        state.withLock { $0.faults += faults.map { ($0, nil) } }
    }

    /// Queues a fault for the next request to a path ending with `endpoint` (such as
    /// `records/modify`); other requests pass it by.
    public func inject(_ fault: Fault, on endpoint: String) {
        state.withLock { $0.faults.append((fault, endpoint)) }
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

    public func send(_ request: TransportRequest) async throws -> TransportResponse {
        let path = Self.path(of: request)
        let (offline, fault) = state.withLock { state -> (Bool, Fault?) in
            if state.offline { return (true, nil) }
            guard let index = state.faults.firstIndex(where: { $0.endpoint.map { path.hasSuffix($0) } ?? true }) else { return (false, nil) }
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
